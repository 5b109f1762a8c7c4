// SPDX-License-Identifier: BSD-2-Clause-Patent
// Feature names, option keys and option values as a library user passes them:
// vmaf_feature_dictionary_set, vmaf_use_feature (option parsing, validation,
// name suffixes) and vmaf_model_feature_overload on a model, then two small
// frames through whatever was registered (the extractors with those options).
//
// Input: lines, one feature each: NAME, then KEY and VALUE fields, separated by
// tabs ("adm\tadm_enhn_gain_limit\t1.2"). A key without a value is set to "".
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "fuzz_model_json.h"
#include "libvmaf/libvmaf.h"
#include "model/model.h"

namespace {

std::vector<std::string> split_tabs(std::string_view line)
{
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t tab = line.find('\t', start);
        out.emplace_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
        if (tab == std::string_view::npos) return out;
        start = tab + 1;
    }
}

const vmaf::Model &base_model()
{
    static const vmaf::Model *m = [] {
        static fuzz::MemFile file;
        VmafModelConfig cfg{};
        VmafModel *model = nullptr;
        if (vmaf_model_load_from_path(&model, &cfg, file.write(fuzz::kModelJson)))
            fuzz::fail("the built-in model does not load");
        return &model->impl;  // kept for the whole run
    }();
    return *m;
}

void fill(VmafPicture *pic, unsigned seed)
{
    for (unsigned p = 0; p < 3; p++) {
        auto *row = static_cast<uint8_t *>(pic->data[p]);
        for (unsigned y = 0; y < pic->h[p]; y++, row += pic->stride[p])
            for (unsigned x = 0; x < pic->w[p]; x++) row[x] = uint8_t((x * 7 + y * 13 + seed * (x ^ y)) & 0xff);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    VmafContext *ctx = nullptr;
    if (vmaf_init(&ctx, cfg)) fuzz::fail("vmaf_init failed");
    VmafModel model{base_model()};

    fuzz::Input in(data, size);
    bool registered = false;
    for (int n = 0; n < 8 && !in.empty(); n++) {
        const std::vector<std::string> f = split_tabs(in.line());
        VmafFeatureDictionary *d = nullptr, *d2 = nullptr;
        for (size_t i = 1; i < f.size(); i += 2) {
            const std::string &val = i + 1 < f.size() ? f[i + 1] : std::string();
            const int e = vmaf_feature_dictionary_set(&d, f[i].c_str(), val.c_str());
            if (e == 0 && !d) fuzz::fail("vmaf_feature_dictionary_set: success without a dictionary");
            vmaf_feature_dictionary_set(&d2, f[i].c_str(), val.c_str());
        }
        // Both consume their dictionary, whatever the outcome.
        registered |= vmaf_use_feature(ctx, f[0].c_str(), d) == 0;
        if (d2) vmaf_model_feature_overload(&model, f[0].c_str(), d2);
    }
    if (registered) {
        for (unsigned i = 0; i < 2; i++) {
            VmafPicture ref{}, dist{};
            if (vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 48) ||
                vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, 8, 64, 48))
                fuzz::fail("vmaf_picture_alloc failed");
            fill(&ref, 0);
            fill(&dist, i + 1);
            if (vmaf_read_pictures(ctx, &ref, &dist, i)) {
                vmaf_picture_unref(&ref);
                vmaf_picture_unref(&dist);
                break;
            }
        }
        vmaf_read_pictures(ctx, nullptr, nullptr, 0);
    }
    vmaf_close(ctx);
    return 0;
}
