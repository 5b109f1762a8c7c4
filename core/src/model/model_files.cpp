// SPDX-License-Identifier: BSD-2-Clause-Patent
// Finding and reading model files.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "os/os.h"

#ifndef VMAF_MODEL_DIR
#error "VMAF_MODEL_DIR must be defined by the build (meson option model_dir)"
#endif

namespace vmaf {

namespace {

constexpr const char *kModelDirEnv = "VMAF_MODEL_DIR";

// Every way of failing to read the file is -EINVAL, as in libvmaf (which
// returns that whenever fopen fails); the message says why. Only a regular file
// of at most kMaxModelBytes is read (a FIFO or a device is refused at once).
constexpr size_t kMaxModelBytes = size_t(64) << 20;

int read_text(const std::string &path, std::string *text, std::string *err)
{
    std::string why;
    if (os::read_regular_file(path, kMaxModelBytes, text, &why)) {
        if (err) *err = "cannot read model file '" + path + "': " + why;
        return -EINVAL;
    }
    return 0;
}

// `what` names the text in messages: "model file 'PATH'" or "built-in model 'NAME'".
int parse_json(const std::string &what, std::string_view text, nlohmann::json *doc, std::string *err)
{
    try {
        *doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &ex) {
        // Syntax errors and numbers out of range (1e999) alike.
        if (err) *err = what + " is not valid JSON: " + ex.what();
        return -EINVAL;
    }
    return 0;
}

int read_json(const std::string &path, nlohmann::json *doc, std::string *err)
{
    std::string text;
    if (int e = read_text(path, &text, err)) return e;
    return parse_json("model file '" + path + "'", text, doc, err);
}

bool readable_file(const std::string &path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(os::fs_path(path), ec)) return false;
    return std::ifstream(os::fs_path(path)).good();
}

void prefix(std::string *err, const std::string &path)
{
    if (err) *err = "model file '" + path + "': " + *err;
}

}  // namespace

std::string model_directory()
{
    const std::string env = os::get_env(kModelDirEnv);
    return !env.empty() ? env : std::string(VMAF_MODEL_DIR);
}

namespace {

bool plain_name(const std::string &v, std::string *err)
{
    if (v.empty() || v == "." || v == ".." || v.find('/') != std::string::npos) {
        if (err) *err = "'" + v + "' is not a model version name (give a file with a path instead)";
        return false;
    }
    return true;
}

// <dir>/<version>.json, else <version>.json in exactly one folder of <dir>
// (upstream's layout keeps a family of models in a folder of its own:
// vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json). 0 when found, -ENOENT when not,
// -EINVAL (with *err) when several folders have it.
int search_directory(const std::string &dir, const std::string &v, std::string *path, std::string *err)
{
    const std::string file = v + ".json";
    *path = dir + "/" + file;
    if (readable_file(*path)) return 0;
    std::vector<std::string> found;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(os::fs_path(dir), ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code ec2;
        if (!it->is_directory(ec2)) continue;
        const std::string candidate = os::utf8_path(it->path() / os::fs_path(file));
        if (readable_file(candidate)) found.push_back(candidate);
    }
    std::sort(found.begin(), found.end());
    if (found.size() == 1) {
        *path = found[0];
        return 0;
    }
    if (found.empty()) return -ENOENT;
    if (err) {
        *err = "model '" + v + "' is ambiguous: ";
        for (size_t i = 0; i < found.size(); i++) *err += (i ? " and " : "") + found[i];
        *err += " both exist";
    }
    return -EINVAL;
}

// " (model directory DIR, from $VMAF_MODEL_DIR)" or "..., set at build time; ...".
std::string directory_origin(const std::string &dir, bool from_env)
{
    return " (model directory " + dir +
           (from_env ? std::string(", from $") + kModelDirEnv
                     : std::string(", set at build time; set $") + kModelDirEnv + " to use another") +
           ")";
}

bool model_dir_from_env()
{
    return !os::get_env(kModelDirEnv).empty();
}

}  // namespace

int model_version_path(std::string_view version, std::string *path, std::string *err)
{
    const std::string v(version);
    if (!plain_name(v, err)) return -EINVAL;
    const std::string dir = model_directory();
    const int e = search_directory(dir, v, path, err);
    if (e == 0) return 0;
    const std::string where = directory_origin(dir, model_dir_from_env());
    if (e == -ENOENT) {
        // libvmaf returns -EINVAL for a version it does not know.
        if (err)
            *err = "no model '" + v + "': neither " + *path + " nor " + v + ".json in a folder of " + dir +
                   " exists or can be read" + where;
    } else if (err) {
        *err += where;
    }
    return -EINVAL;
}

int find_model_version(std::string_view version, ModelSource *out, std::string *err)
{
    const std::string v(version);
    *out = ModelSource{};
    if (!plain_name(v, err)) return -EINVAL;
    const bool from_env = model_dir_from_env();
    const std::string dir = model_directory();
    // The directory the user named overrides the built-in models.
    if (from_env) {
        const int e = search_directory(dir, v, &out->path, err);
        if (e == 0) return 0;
        if (e != -ENOENT) {
            if (err) *err += directory_origin(dir, true);
            return -EINVAL;
        }
    }
    for (const BuiltInModel &b : built_in_models()) {
        if (b.version != v) continue;
        out->built_in = &b;
        out->path.clear();
        return 0;
    }
    if (!from_env) {
        const int e = search_directory(dir, v, &out->path, err);
        if (e == 0) return 0;
        if (e != -ENOENT) {
            if (err) *err += directory_origin(dir, false);
            return -EINVAL;
        }
    }
    // libvmaf returns -EINVAL for a version it does not know.
    if (err) {
        std::string names;
        for (const BuiltInModel &b : built_in_models()) names += (names.empty() ? "" : ", ") + std::string(b.version);
        *err = "no model '" + v + "': not built in (built-in models: " +
               (names.empty() ? std::string("none in this build") : names) + ") and neither " + dir + "/" + v +
               ".json nor " + v + ".json in a folder of " + dir + " exists or can be read" +
               directory_origin(dir, from_env);
    }
    out->path.clear();
    return -EINVAL;
}

int load_model_file(const std::string &path, const ModelConfig &cfg, Model *out, std::string *err,
                    bool *other_kind)
{
    nlohmann::json doc;
    if (int e = read_json(path, &doc, err)) return e;
    if (int e = Model::from_json(doc, cfg, out, err, other_kind)) {
        prefix(err, path);
        return e;
    }
    return 0;
}

int load_collection_file(const std::string &path, const ModelConfig &cfg, Model *main,
                         ModelCollection *out, std::string *err, bool *other_kind)
{
    nlohmann::json doc;
    if (int e = read_json(path, &doc, err)) return e;
    if (int e = ModelCollection::from_json(doc, cfg, main, out, err, other_kind)) {
        prefix(err, path);
        return e;
    }
    return 0;
}

int load_model_version(std::string_view version, const ModelConfig &cfg, Model *out, std::string *err,
                       bool *other_kind)
{
    ModelSource src;
    if (int e = find_model_version(version, &src, err)) return e;
    if (!src.built_in) return load_model_file(src.path, cfg, out, err, other_kind);
    const std::string what = "built-in model '" + std::string(src.built_in->version) + "'";
    nlohmann::json doc;
    if (int e = parse_json(what, src.built_in->json, &doc, err)) return e;
    if (int e = Model::from_json(doc, cfg, out, err, other_kind)) {
        if (err) *err = what + ": " + *err;
        return e;
    }
    return 0;
}

int load_collection_version(std::string_view version, const ModelConfig &cfg, Model *main,
                            ModelCollection *out, std::string *err, bool *other_kind)
{
    ModelSource src;
    if (int e = find_model_version(version, &src, err)) return e;
    if (!src.built_in) return load_collection_file(src.path, cfg, main, out, err, other_kind);
    const std::string what = "built-in model '" + std::string(src.built_in->version) + "'";
    nlohmann::json doc;
    if (int e = parse_json(what, src.built_in->json, &doc, err)) return e;
    if (int e = ModelCollection::from_json(doc, cfg, main, out, err, other_kind)) {
        if (err) *err = what + ": " + *err;
        return e;
    }
    return 0;
}

}  // namespace vmaf
