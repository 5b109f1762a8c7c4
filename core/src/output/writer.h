// SPDX-License-Identifier: BSD-2-Clause-Patent
// Score documents in libvmaf's four output formats: XML, JSON, CSV and MicroDVD
// subtitles. The layout, field names and number formatting follow libvmaf 3.x so
// that tools parsing libvmaf's files read ours unchanged (docs/output-formats.md).
#pragma once

#include <cstdio>
#include <functional>
#include <string>

#include "context/collector.h"
#include "libvmaf/libvmaf.h"

namespace vmaf {

// Pool one stored feature over the frames the run computed. Returns 0 and the
// value, or a negative errno when the feature cannot be pooled (a computed frame
// has no score, or no frame was computed): the writers then omit the value.
using PoolFn = std::function<int(const std::string &name, VmafPoolingMethod method, double *value)>;

// What the documents hold besides the per-frame scores of the collector.
struct OutputInfo {
    std::string version;     // vmaf_version()
    double fps = 0.0;        // frames per second of the run; NaN/inf are written as null in JSON
    unsigned width = 0;      // luma size of the pictures (XML <params>)
    unsigned height = 0;
    unsigned subsample = 0;  // frames i % subsample != 0 are left out (0 or 1: none)
    PoolFn pool;             // pooled_metrics; empty: every feature is listed without values
};

// Render the whole document. Features appear in the collector's listing order
// (FeatureCollector::names()), under the names the collector stores (libvmaf's
// aliases plus option suffixes); aggregate metrics come from the collector too.
// An empty collector gives a valid empty document.
std::string render_output(VmafOutputFormat fmt, const FeatureCollector &fc, const OutputInfo &info);

// Render and write to `f`. Returns 0, -EINVAL for an unknown format or a null
// file, or -EIO when writing fails.
int write_output(std::FILE *f, VmafOutputFormat fmt, const FeatureCollector &fc,
                 const OutputInfo &info);

}  // namespace vmaf
