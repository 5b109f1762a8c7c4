// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "cli_options.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <getopt.h>
#include <limits>
#include <string_view>

#include "cli_presets.h"
#include "io/video_reader.h"

namespace vmaf::cli {

namespace {

enum LongOnly : int {
    kOptXml = 256,
    kOptJson,
    kOptCsv,
    kOptSub,
    kOptThreads,
    kOptFeature,
    kOptSubsample,
    kOptCpumask,
    kOptGpumask,
    kOptFrameCnt,
    kOptFrameSkipRef,
    kOptFrameSkipDist,
    kOptBackend,
    kOptVulkanDevice,
    kOptAomCtc,
    kOptHwdec,
    kOptNflxCtc,
    kOptAllowTruncated,
    kOptHelp,
};

constexpr char kShortOpts[] = ":r:d:w:h:p:b:m:o:nqv";

constexpr option kLongOpts[] = {
    {"reference", required_argument, nullptr, 'r'},
    {"distorted", required_argument, nullptr, 'd'},
    {"width", required_argument, nullptr, 'w'},
    {"height", required_argument, nullptr, 'h'},
    {"pixel_format", required_argument, nullptr, 'p'},
    {"bitdepth", required_argument, nullptr, 'b'},
    {"model", required_argument, nullptr, 'm'},
    {"output", required_argument, nullptr, 'o'},
    {"xml", no_argument, nullptr, kOptXml},
    {"json", no_argument, nullptr, kOptJson},
    {"csv", no_argument, nullptr, kOptCsv},
    {"sub", no_argument, nullptr, kOptSub},
    {"threads", required_argument, nullptr, kOptThreads},
    {"feature", required_argument, nullptr, kOptFeature},
    {"subsample", required_argument, nullptr, kOptSubsample},
    {"cpumask", required_argument, nullptr, kOptCpumask},
    {"gpumask", required_argument, nullptr, kOptGpumask},
    {"frame_cnt", required_argument, nullptr, kOptFrameCnt},
    {"frame_skip_ref", required_argument, nullptr, kOptFrameSkipRef},
    {"frame_skip_dist", required_argument, nullptr, kOptFrameSkipDist},
    {"backend", required_argument, nullptr, kOptBackend},
    {"vulkan_device", required_argument, nullptr, kOptVulkanDevice},
    {"no_prediction", no_argument, nullptr, 'n'},
    {"quiet", no_argument, nullptr, 'q'},
    {"version", no_argument, nullptr, 'v'},
    {"aom_ctc", required_argument, nullptr, kOptAomCtc},
    {"hwdec", required_argument, nullptr, kOptHwdec},
    {"nflx_ctc", required_argument, nullptr, kOptNflxCtc},
    {"allow-truncated", no_argument, nullptr, kOptAllowTruncated},
    {"help", no_argument, nullptr, kOptHelp},
    {nullptr, 0, nullptr, 0},
};

// "-w/--width" or "--threads" for messages.
std::string option_name(int val)
{
    for (const option &o : kLongOpts) {
        if (!o.name || o.val != val) continue;
        if (val < 256) return std::string("-") + char(val) + "/--" + o.name;
        return std::string("--") + o.name;
    }
    return "option";
}

// A plain decimal number (digits only: no sign, no space, no octal), or, for a
// mask, 0x and hexadecimal digits, within [0, max]; never wraps.
bool parse_number(const char *s, uint64_t max, uint64_t *out, bool hex_ok = false)
{
    if (!s || !*s) return false;
    unsigned base = 10;
    if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!*s) return false;
    }
    uint64_t v = 0;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9') d = unsigned(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f') d = unsigned(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F') d = unsigned(*s - 'A' + 10);
        else return false;
        if (v > (std::numeric_limits<uint64_t>::max() - d) / base) return false;
        v = v * base + d;
    }
    if (v > max) return false;
    *out = v;
    return true;
}

int bad_value(std::string *err, int opt, const char *arg, const std::string &should_be)
{
    *err = "invalid value \"" + std::string(arg) + "\" for " + option_name(opt) + ": expected " +
           should_be;
    return kExitUsage;
}

int parse_unsigned(int opt, const char *arg, unsigned max, unsigned *out, std::string *err)
{
    uint64_t v;
    if (!parse_number(arg, max, &v))
        return bad_value(err, opt, arg, "an integer from 0 to " + std::to_string(max));
    *out = unsigned(v);
    return 0;
}

// Split "a:b:c" (empty items are skipped, as strsep-based parsing in libvmaf
// would stop on them).
std::vector<std::string> split(std::string_view s, char sep)
{
    std::vector<std::string> items;
    size_t start = 0;
    while (start <= s.size()) {
        size_t end = s.find(sep, start);
        if (end == std::string_view::npos) end = s.size();
        if (end > start) items.emplace_back(s.substr(start, end - start));
        start = end + 1;
    }
    return items;
}

bool parse_bool(const std::string &v, bool *out)
{
    if (v == "true" || v == "1") { *out = true; return true; }
    if (v == "false" || v == "0") { *out = false; return true; }
    return false;
}

// path=FILE | version=NAME, name=NAME, disable_clip[=bool], enable_transform[=bool],
// FEATURE.OPTION=VALUE, joined by ':'.
int parse_model(const char *arg, ModelSpec *m, std::string *err)
{
    for (const std::string &item : split(arg, ':')) {
        const size_t eq = item.find('=');
        const std::string key = item.substr(0, eq);
        const bool has_val = eq != std::string::npos;
        const std::string val = has_val ? item.substr(eq + 1) : "true";
        if (key == "path" && has_val) {
            m->path = val;
        } else if (key == "version" && has_val) {
            m->version = val;
        } else if (key == "name" && has_val) {
            m->name = val;
        } else if (key == "disable_clip" || key == "enable_transform") {
            bool on;
            if (!parse_bool(val, &on)) {
                *err = "-m/--model: " + key + " takes true or false, not \"" + val + "\"";
                return kExitUsage;
            }
            const uint64_t flag = key == "disable_clip" ? VMAF_MODEL_FLAG_DISABLE_CLIP
                                                        : VMAF_MODEL_FLAG_ENABLE_TRANSFORM;
            m->flags = on ? (m->flags | flag) : (m->flags & ~flag);
        } else if (const size_t dot = key.find('.'); has_val && dot != std::string::npos &&
                                                     dot > 0 && dot + 1 < key.size()) {
            m->overloads.push_back({key.substr(0, dot), {{key.substr(dot + 1), val}}});
        } else {
            *err = "-m/--model: bad parameter \"" + item +
                   "\" (expected path=, version=, name=, disable_clip, enable_transform or "
                   "FEATURE.OPTION=VALUE)";
            return kExitUsage;
        }
    }
    if (m->path.empty() == m->version.empty()) {
        *err = "-m/--model \"" + std::string(arg) + "\": give exactly one of path= or version=";
        return kExitUsage;
    }
    if (m->name.empty()) {
        *err = "-m/--model \"" + std::string(arg) + "\": name= must not be empty";
        return kExitUsage;
    }
    return 0;
}

int parse_feature_arg(const char *arg, FeatureSpec *f, std::string *err)
{
    const std::string_view s(arg);
    const size_t eq = s.find('=');
    f->name = std::string(s.substr(0, eq));
    if (f->name.empty()) {
        *err = "--feature \"" + std::string(arg) + "\": missing feature name";
        return kExitUsage;
    }
    if (eq == std::string_view::npos) return 0;
    for (const std::string &item : split(s.substr(eq + 1), ':')) {
        const size_t e = item.find('=');
        if (e == std::string::npos || e == 0) {
            *err = "--feature " + f->name + ": bad option \"" + item + "\" (expected option=value)";
            return kExitUsage;
        }
        f->opts.emplace_back(item.substr(0, e), item.substr(e + 1));
    }
    return 0;
}

int parse_backend(const char *arg, Backend *out, std::string *err)
{
    const std::string_view s(arg);
    if (s == "cpu") *out = Backend::Cpu;
    else if (s == "vulkan") *out = Backend::Vulkan;
    else if (s == "auto") *out = Backend::Auto;
    else return bad_value(err, kOptBackend, arg, "cpu, vulkan or auto");
    return 0;
}

// One option with its argument.
int apply(int o, const char *arg, Options *opt, std::string *err)
{
    uint64_t mask;
    switch (o) {
    case 'r': opt->ref_path = arg; return 0;
    case 'd': opt->dist_path = arg; return 0;
    case 'w': opt->raw = true; return parse_unsigned(o, arg, 65536, &opt->width, err);
    case 'h': opt->raw = true; return parse_unsigned(o, arg, 65536, &opt->height, err);
    case 'p':
        opt->raw = true;
        opt->pix_fmt = io::parse_pix_fmt(arg);
        if (opt->pix_fmt == VMAF_PIX_FMT_UNKNOWN)
            return bad_value(err, o, arg, "420, 422, 444 or 400");
        return 0;
    case 'b':
        opt->raw = true;
        if (int e = parse_unsigned(o, arg, 64, &opt->bitdepth, err)) return e;
        if (opt->bitdepth != 8 && opt->bitdepth != 10 && opt->bitdepth != 12 && opt->bitdepth != 16)
            return bad_value(err, o, arg, "a supported bit depth (8, 10, 12 or 16)");
        return 0;
    case 'm': {
        ModelSpec m;
        if (int e = parse_model(arg, &m, err)) return e;
        opt->models.push_back(std::move(m));
        return 0;
    }
    case 'o': opt->output_path = arg; return 0;
    case kOptXml: opt->output_fmt = VMAF_OUTPUT_FORMAT_XML; return 0;
    case kOptJson: opt->output_fmt = VMAF_OUTPUT_FORMAT_JSON; return 0;
    case kOptCsv: opt->output_fmt = VMAF_OUTPUT_FORMAT_CSV; return 0;
    case kOptSub: opt->output_fmt = VMAF_OUTPUT_FORMAT_SUB; return 0;
    case kOptThreads: return parse_unsigned(o, arg, 1024, &opt->threads, err);
    case kOptFeature: {
        FeatureSpec f;
        if (int e = parse_feature_arg(arg, &f, err)) return e;
        opt->features.push_back(std::move(f));
        return 0;
    }
    case kOptSubsample: return parse_unsigned(o, arg, 1u << 20, &opt->subsample, err);
    case kOptCpumask:
    case kOptGpumask:
        if (!parse_number(arg, std::numeric_limits<uint64_t>::max(), &mask, true))
            return bad_value(err, o, arg, "a bit mask");
        (o == kOptCpumask ? opt->cpumask : opt->gpumask) = mask;
        return 0;
    case kOptFrameCnt: return parse_unsigned(o, arg, std::numeric_limits<unsigned>::max(), &opt->frame_cnt, err);
    case kOptFrameSkipRef:
        return parse_unsigned(o, arg, std::numeric_limits<unsigned>::max(), &opt->frame_skip_ref, err);
    case kOptFrameSkipDist:
        return parse_unsigned(o, arg, std::numeric_limits<unsigned>::max(), &opt->frame_skip_dist, err);
    case kOptBackend: opt->backend_given = true; return parse_backend(arg, &opt->backend, err);
    case kOptVulkanDevice: {
        unsigned dev;
        if (int e = parse_unsigned(o, arg, 255, &dev, err)) return e;
        opt->vulkan_device = int(dev);
        return 0;
    }
    case kOptAomCtc: return apply_preset("aom_ctc", arg, opt, err);
    case kOptHwdec:
        if (std::string_view(arg) == "none") opt->hwdec_vulkan = false;
        else if (std::string_view(arg) == "vulkan") opt->hwdec_vulkan = true;
        else return bad_value(err, o, arg, "vulkan or none");
        return 0;
    case kOptNflxCtc: return apply_preset("nflx_ctc", arg, opt, err);
    case kOptAllowTruncated: opt->allow_truncated = true; return 0;
    case 'n': opt->no_prediction = true; return 0;
    case 'q': opt->quiet = true; return 0;
    case 'v': opt->show_version = true; return 0;
    case kOptHelp: opt->show_help = true; return 0;
    default: *err = "internal error: unhandled option"; return kExitUsage;
    }
}

// Checks that need the whole command line.
int validate(Options *opt, std::string *err)
{
    if (opt->ref_path.empty()) {
        *err = "a reference (-r/--reference FILE) is required";
        return kExitUsage;
    }
    if (opt->dist_path.empty()) {
        *err = "a distorted input (-d/--distorted FILE) is required";
        return kExitUsage;
    }
    if (opt->raw && !(opt->width && opt->height && opt->pix_fmt && opt->bitdepth)) {
        *err = "raw .yuv input needs all of -w/--width, -h/--height, -p/--pixel_format and "
               "-b/--bitdepth";
        return kExitUsage;
    }
    if (opt->no_prediction && opt->features.empty()) {
        *err = "-n/--no_prediction without --feature leaves nothing to compute";
        return kExitUsage;
    }
    if (opt->models.empty() && !opt->no_prediction) {
        ModelSpec def;
        def.version = "vmaf_v0.6.1";
        opt->models.push_back(def);
    }
    for (size_t i = 0; i < opt->models.size(); i++)
        for (size_t j = i + 1; j < opt->models.size(); j++)
            if (opt->models[i].name == opt->models[j].name) {
                *err = "two models are named \"" + opt->models[i].name +
                       "\": give each -m/--model a distinct name=";
                return kExitUsage;
            }
    // Frames decoded on the GPU are scored on the device that decoded them.
    if (opt->hwdec_vulkan) {
        if (opt->backend_given && opt->backend == Backend::Cpu) {
            *err = "--hwdec vulkan scores the decoded frames on the GPU: it needs --backend vulkan (or auto, or "
                   "no --backend), not --backend cpu";
            return kExitUsage;
        }
        opt->backend = Backend::Vulkan;
    }
    if (opt->vulkan_device >= 0 && opt->backend == Backend::Cpu) {
        *err = "--vulkan_device needs --backend vulkan or --backend auto";
        return kExitUsage;
    }
    if (opt->output_fmt == VMAF_OUTPUT_FORMAT_NONE) opt->output_fmt = VMAF_OUTPUT_FORMAT_XML;
    return 0;
}

}  // namespace

int parse_feature(const char *arg, FeatureSpec *f, std::string *err)
{
    return parse_feature_arg(arg, f, err);
}

int parse_options(int argc, char **argv, Options *out, std::string *err)
{
    Options opt;
    opterr = 0;  // our messages, not getopt's
    // 0, not 1: glibc then also drops what it kept from an earlier parse (the
    // rest of an option cluster, the permutation bounds), which may point into
    // an argv that no longer exists.
    optind = 0;
    for (;;) {
        const int prev_optind = optind;
        const int o = getopt_long(argc, argv, kShortOpts, kLongOpts, nullptr);
        if (o == -1) break;
        if (o == '?' || o == ':') {
            const char *word = prev_optind < argc ? argv[prev_optind] : "";
            std::string what = optopt && optopt < 256 ? std::string("-") + char(optopt) : word;
            if (optopt >= 256) what = option_name(optopt);
            *err = o == '?' ? "unknown option " + what : what + " needs a value";
            return kExitUsage;
        }
        if (int e = apply(o, optarg, &opt, err)) return e;
    }
    if (optind < argc) {
        *err = "unexpected argument \"" + std::string(argv[optind]) + "\"";
        return kExitUsage;
    }
    if (!opt.show_help && !opt.show_version)
        if (int e = validate(&opt, err)) return e;
    *out = std::move(opt);
    return 0;
}

std::string usage_text(const char *program)
{
    return std::string("Usage: ") + program + " -r REF -d DIST [options]\n" + R"(
Computes VMAF (and other features) of a distorted video against its reference.

Input:
  -r, --reference FILE        reference video: .y4m, raw .yuv with -w -h -p -b, or (in a
                              build with FFmpeg's libraries) any file FFmpeg decodes
  -d, --distorted FILE        distorted video
      --hwdec vulkan|none     decode on the GPU and score there (the Vulkan backend; needs
                              FFmpeg 6.1 or later; default none)
  -w, --width N               raw input: width
  -h, --height N              raw input: height
  -p, --pixel_format FMT      raw input: 420, 422, 444 or 400
  -b, --bitdepth N            raw input: 8, 10, 12 or 16
      --frame_cnt N           score at most N frames
      --frame_skip_ref N      skip the first N reference frames
      --frame_skip_dist N     skip the first N distorted frames
      --allow-truncated       a compressed input cut short or damaged: score the
                              frames before the damage (default: exit status 2)

Scoring:
  -m, --model PARAMS          a model, ':'-separated parameters (repeatable):
                                version=NAME     model from the model directory
                                path=FILE        model file (libvmaf JSON)
                                name=NAME        score name in outputs (default vmaf)
                                disable_clip     do not clip the score to the model's range
                                enable_transform apply the model's score transform
                                FEATURE.OPT=VAL  override a feature option
                              default: version=vmaf_v0.6.1
      --feature NAME[=OPT=VAL:OPT=VAL]
                              also compute a feature (repeatable; docs/features.md
                              lists them)
      --aom_ctc VERSION       the AOM common test conditions' models and features:
                              v1.0 to v7.0 (as libvmaf's --aom_ctc)
      --nflx_ctc VERSION      Netflix's common test conditions: v1.0
  -n, --no_prediction         compute features only, no model
      --threads N             frame threads (0: the calling thread only)
      --subsample N           compute every N-th frame only
      --backend B             cpu (default), vulkan or auto
      --vulkan_device N       Vulkan device index (with --backend vulkan|auto)
      --cpumask M, --gpumask M  accepted for libvmaf compatibility

Output:
  -o, --output FILE           write per-frame and pooled scores to FILE ('-': stdout)
      --xml | --json | --csv | --sub
                              format of the output file (default XML)
  -q, --quiet                 no progress line
  -v, --version               print the version and exit
      --help                  print this help and exit

Exit status: 0 success, 1 bad command line, 2 bad or unreadable input,
3 model, feature or backend set-up failed, 4 scoring or writing failed.
)";
}

}  // namespace vmaf::cli
