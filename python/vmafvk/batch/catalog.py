# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The catalog: the pairs of a CSV file, their tool arguments and their names."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shlex
from dataclasses import dataclass, field

from .errors import BatchError

COLUMNS = ("reference", "distorted", "name", "model", "features", "args")
# Options the batch sets itself; a row's `args` may not give them.
_RESERVED = {"-r", "--reference", "-d", "--distorted", "-o", "--output", "--xml", "--json",
             "--csv", "--sub", "--backend", "--vulkan_device", "--threads", "-q", "--quiet",
             "-v", "--version", "--help"}
_NAME_OK = re.compile(r"[^A-Za-z0-9._+-]")


@dataclass
class Pair:
    line: int                 # line of the CSV (the header is line 1)
    name: str
    reference: str            # absolute paths
    distorted: str
    models: list = field(default_factory=list)    # -m values; ["none"] for -n
    features: list = field(default_factory=list)  # --feature values
    args: list = field(default_factory=list)      # further options of the vmaf tool

    def cli_args(self) -> list:
        a = ["-r", self.reference, "-d", self.distorted]
        if self.models == ["none"]:
            a.append("-n")
        else:
            for m in self.models:
                a += ["-m", m]
        for f in self.features:
            a += ["--feature", f]
        return a + list(self.args)

    def model_names(self) -> list:
        """Score names the models give (for ordering the summary's columns)."""
        if self.models == ["none"]:
            return []
        names = []
        for m in self.models or ["version=vmaf_v0.6.1"]:
            given = [p[5:] for p in m.split(":") if p.startswith("name=")]
            names.append(given[0] if given else "vmaf")
        return names


def _split_list(cell: str) -> list:
    return [x.strip() for x in cell.split(";") if x.strip()]


def _check_args(args: list, where: str) -> None:
    for a in args:
        opt = a.split("=", 1)[0]
        if opt in _RESERVED:
            raise BatchError(f"{where}: {opt} is set by the batch tool and cannot be given in args")


def read_pairs(path: str, models=(), features=(), extra_args=()) -> list:
    """The pairs of a CSV file. Relative paths are relative to the CSV's folder.
    `models`, `features` apply to rows whose own cells are empty; `extra_args`
    come before every row's `args`."""
    base = os.path.dirname(os.path.abspath(path))
    try:
        with open(path, "rb") as raw:
            data = raw.read()
    except OSError as e:
        raise BatchError(f"{path}: {e.strerror}") from e
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise BatchError(f"{path}:{line}: not UTF-8 text (a byte 0x{data[e.start]:02x}); "
                         "save the file as UTF-8") from None
    with io.StringIO(text, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            raise BatchError(f"{path}: empty file (a header line reference,distorted is needed)")
        header = [h.strip().lower() for h in header]
        unknown = [h for h in header if h not in COLUMNS]
        if unknown:
            raise BatchError(f"{path}: unknown column(s) {', '.join(unknown)} "
                             f"(the columns are {', '.join(COLUMNS)})")
        for needed in ("reference", "distorted"):
            if needed not in header:
                raise BatchError(f"{path}: no {needed!r} column in the header")
        if len(set(header)) != len(header):
            raise BatchError(f"{path}: a column is named twice in the header")
        rows = []
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(header):
                raise BatchError(f"{path}:{line}: {len(cells)} cells, the header has {len(header)}")
            row = dict(zip(header, (c.strip() for c in cells)))
            rows.append((line, row))

    pairs = []
    for line, row in rows:
        where = f"{path}:{line}"
        ref, dis = row.get("reference", ""), row.get("distorted", "")
        if not ref or not dis:
            raise BatchError(f"{where}: empty reference or distorted cell")
        model_cell = row.get("model", "")
        pair_models = _split_list(model_cell) if model_cell else list(models)
        if "none" in pair_models and pair_models != ["none"]:
            raise BatchError(f"{where}: model 'none' cannot be combined with other models")
        feature_cell = row.get("features", "")
        pair_features = _split_list(feature_cell) if feature_cell else list(features)
        if pair_models == ["none"] and not pair_features:
            raise BatchError(f"{where}: model 'none' needs at least one feature")
        try:
            args = list(extra_args) + shlex.split(row.get("args", ""))
        except ValueError as e:
            raise BatchError(f"{where}: args: {e}") from e
        _check_args(args, where)
        pairs.append(Pair(line, row.get("name", ""), os.path.join(base, ref), os.path.join(base, dis),
                          pair_models, pair_features, args))
    _name_pairs(pairs, path)
    return pairs


def _identity(p: Pair) -> str:
    text = json.dumps([p.reference, p.distorted, p.models, p.features, p.args])
    return hashlib.sha1(text.encode()).hexdigest()[:8]


def _name_pairs(pairs: list, path: str) -> None:
    """Names: the `name` cell, else the distorted file's name without its
    extension; names shared by several rows get their pair's hash appended."""
    explicit = {}
    for p in pairs:
        if not p.name:
            continue
        clean = _NAME_OK.sub("_", p.name).lstrip(".") or "_"
        if clean in explicit:
            raise BatchError(f"{path}:{p.line}: name {p.name!r} is also the name of line "
                             f"{explicit[clean].line}")
        explicit[clean] = p
        p.name = clean
    derived = [p for p in pairs if not p.name]
    stems = {}
    for p in derived:
        stem = _NAME_OK.sub("_", os.path.splitext(os.path.basename(p.distorted))[0]).lstrip(".") or "pair"
        stems.setdefault(stem, []).append(p)
    taken = set(explicit)
    for stem, group in stems.items():
        if len(group) == 1 and stem not in taken:
            group[0].name = stem
            continue
        for p in group:
            p.name = f"{stem}-{_identity(p)}"
    seen = {}
    for p in pairs:
        if p.name in seen:
            raise BatchError(f"{path}:{p.line}: the same pair as line {seen[p.name].line}; "
                             "give them distinct names in a name column")
        seen[p.name] = p
