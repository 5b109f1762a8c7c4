// SPDX-License-Identifier: BSD-2-Clause-Patent
// The output writers (core/src/output: XML, JSON, CSV, MicroDVD subtitles)
// through vmaf_write_output, on score tables made of fuzzed feature names,
// frame indices and values (NaN, infinities, subnormals, huge numbers), with a
// fuzzed subsampling. The JSON document must parse back whenever the names are
// valid UTF-8.
//
// Input: subsample (1 byte), then records until the input ends:
//   name   1 byte: below 0xc0 one of a few known names, else a NUL-terminated name
//   frame  1 byte (frames 0..255)
//   value  1 byte: below 0x80 a small number, else 8 bytes of a double
// Frame indices stay small: the collector stores every frame up to the highest
// index it was given, by design, so an index near UINT_MAX asks for gigabytes.
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_common.h"
#include "libvmaf/libvmaf.h"

namespace {

constexpr const char *kNames[] = {
    "vmaf", "psnr_y", "integer_vif_scale0", "VMAF_integer_feature_vif_scale0_score", "integer_adm2",
    "vmaf_bagging", "name with \"quotes\" & <tags>", "tab\tnew\nline", "", "\xc3\xa9t\xc3\xa9",
};

bool valid_utf8(std::string_view s)
{
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
        if (n == 9 || (n && i + n >= s.size())) return false;
        uint32_t cp = n == 0 ? c : n == 1 ? c & 0x1f : n == 2 ? c & 0x0f : c & 0x07;
        for (size_t k = 1; k <= n; k++) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d >> 6) != 2) return false;
            cp = (cp << 6) | (d & 0x3f);
        }
        const uint32_t min[] = {0, 0x80, 0x800, 0x10000};
        if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        i += n + 1;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzz::MemFile file;
    fuzz::Input in(data, size);
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    cfg.n_subsample = in.u8() % 5;
    VmafContext *ctx = nullptr;
    if (vmaf_init(&ctx, cfg)) fuzz::fail("vmaf_init failed");

    bool utf8 = true;
    for (int n = 0; n < 256 && !in.empty(); n++) {
        const uint8_t sel = in.u8();
        const std::string name(sel < 0xc0 ? std::string_view(kNames[sel % std::size(kNames)]) : in.cstr());
        const unsigned frame = in.u8();
        const uint8_t v = in.u8();
        const double value = v < 0x80 ? (v - 16) / 8.0 : in.any_double();
        if (vmaf_import_feature_score(ctx, name.c_str(), value, frame) == 0) utf8 = utf8 && valid_utf8(name);
    }

    for (const VmafOutputFormat fmt : {VMAF_OUTPUT_FORMAT_XML, VMAF_OUTPUT_FORMAT_JSON, VMAF_OUTPUT_FORMAT_CSV,
                                       VMAF_OUTPUT_FORMAT_SUB}) {
        file.write({});
        if (vmaf_write_output(ctx, file.path(), fmt)) fuzz::fail("vmaf_write_output failed");
        if (fmt != VMAF_OUTPUT_FORMAT_JSON || !utf8) continue;
        const auto doc = nlohmann::json::parse(file.read(), nullptr, false);
        if (!doc.is_object() || !doc.contains("frames") || !doc["frames"].is_array()) fuzz::fail("the JSON output does not parse");
    }
    vmaf_close(ctx);
    return 0;
}
