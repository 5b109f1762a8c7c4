// SPDX-License-Identifier: BSD-2-Clause-Patent
// speed_chroma and speed_temporal against Netflix libvmaf's output on every
// golden pair large enough for them, options and their output names, bad
// options, and pictures too small for SpEED.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include "feature/speed/speed_cov.h"
#include "golden.h"
#include "libvmaf/libvmaf.h"
#include "run.h"

using namespace vmaf::test;

namespace {

const std::vector<std::string> kChroma = {"speed_chroma_u", "speed_chroma_v", "speed_chroma_uv"};
const std::vector<std::string> kTemporal = {"speed_temporal"};

using Opts = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE("speed_chroma and speed_temporal match libvmaf on every golden pair", "[speed][golden]")
{
    std::map<std::string, double> worst;
    unsigned compared = 0;
    std::vector<std::string> outputs = kChroma;
    outputs.insert(outputs.end(), kTemporal.begin(), kTemporal.end());
    for (const auto &pair : golden_pairs()) {
        const std::string json = data_dir() + "/" + pair + ".libvmaf.speed.json";
        if (!std::ifstream(json)) continue;  // libvmaf cannot score pairs too small for speed_chroma
        const auto expected = load_expected(json);
        const auto got = run_pair(pair, {{"speed_chroma", {}}, {"speed_temporal", {}}}, outputs);
        for (const auto &n : outputs) {
            compared++;
            const double d = max_frame_diff(got.at(n), expected, n);
            INFO(pair << " " << n << " max |diff| " << d);
            CHECK(d <= 1e-4);
            worst[n] = std::max(worst[n], d);
        }
    }
    CHECK(compared == 7 * 4);
    for (const auto &[n, d] : worst) WARN(n << " max |diff| over all golden pairs: " << d);
}

namespace {

struct OptionCase {
    std::string pair, feature;
    Opts opts;
    std::map<std::string, std::vector<double>> frames;  // output name -> frames 0..4
};

// Netflix libvmaf (f85a8536, scalar build, JSON printed with %.17g) with
// non-default options: output names with their option suffixes and the first
// five frames' scores. 4:2:2 was fed to libvmaf as raw .yuv.
const std::vector<OptionCase> kLibvmafOptionCases = {
    {"astronaut_320x240_422_crf33", "speed_chroma", {{"speed_kernelscale", "2"}},
     {
         {"speed_chroma_u_ks_2", {13.753585815429688, 13.679703712463379, 8.1323919296264648, 4.8533287048339844, 7.0190749168395996}},
         {"speed_chroma_uv_ks_2", {8.9729900360107422, 9.4884195327758789, 7.7359576225280762, 5.5688304901123047, 6.7646684646606445}},
         {"speed_chroma_v_ks_2", {4.1923947334289551, 5.2971358299255371, 7.3395233154296875, 6.284332275390625, 6.5102615356445312}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_kernelscale", "0.5"}},
     {
         {"speed_chroma_u_ks_0.5", {14.454630851745605, 20.459552764892578, 11.539021492004395, 13.641741752624512, 14.226547241210938}},
         {"speed_chroma_uv_ks_0.5", {13.677838325500488, 16.720403671264648, 13.222762107849121, 16.995267868041992, 14.812820434570312}},
         {"speed_chroma_v_ks_0.5", {12.901045799255371, 12.981255531311035, 14.906502723693848, 20.348794937133789, 15.399093627929688}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_prescale", "2"}, {"speed_prescale_method", "bilinear"}},
     {
         {"speed_chroma_u_ps_2_psm_bilinear", {21.94050407409668, 23.557266235351562, 21.705825805664062, 22.008277893066406, 25.435277938842773}},
         {"speed_chroma_uv_ps_2_psm_bilinear", {18.955093383789062, 21.083877563476562, 21.847522735595703, 21.911293029785156, 24.261795043945312}},
         {"speed_chroma_v_ps_2_psm_bilinear", {15.969681739807129, 18.61048698425293, 21.989221572875977, 21.814308166503906, 23.088312149047852}},
     }},
    {"astronaut_320x240_422_crf33", "speed_chroma", {{"speed_prescale", "1.5"}, {"speed_prescale_method", "bicubic"}},
     {
         {"speed_chroma_u_ps_1.5_psm_bicubic", {12.203753471374512, 16.718921661376953, 12.436808586120605, 12.503085136413574, 12.110373497009277}},
         {"speed_chroma_uv_ps_1.5_psm_bicubic", {10.665857315063477, 12.187793731689453, 11.96915340423584, 15.493824005126953, 13.361576080322266}},
         {"speed_chroma_v_ps_1.5_psm_bicubic", {9.1279621124267578, 7.6566658020019531, 11.501498222351074, 18.484563827514648, 14.612778663635254}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_prescale", "1.25"}, {"speed_prescale_method", "lanczos4"}},
     {
         {"speed_chroma_u_ps_1.25_psm_lanczos4", {12.534143447875977, 11.858976364135742, 9.3487939834594727, 11.830196380615234, 7.5400195121765137}},
         {"speed_chroma_uv_ps_1.25_psm_lanczos4", {10.640133857727051, 10.335866928100586, 9.2873458862304688, 11.387849807739258, 9.438084602355957}},
         {"speed_chroma_v_ps_1.25_psm_lanczos4", {8.746124267578125, 8.8127565383911133, 9.2258977890014648, 10.945502281188965, 11.336149215698242}},
     }},
    {"astronaut_320x240_422_crf33", "speed_chroma", {{"speed_prescale", "1.5"}},
     {
         {"speed_chroma_u_ps_1.5", {10.029421806335449, 15.813084602355957, 11.673427581787109, 12.21216869354248, 14.103913307189941}},
         {"speed_chroma_uv_ps_1.5", {9.4919643402099609, 11.786349296569824, 11.304740905761719, 15.231649398803711, 14.844796180725098}},
         {"speed_chroma_v_ps_1.5", {8.9545059204101562, 7.7596144676208496, 10.936053276062012, 18.251131057739258, 15.585679054260254}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_sigma_nn", "0.5"}, {"speed_nn_floor", "0.3"}},
     {
         {"speed_chroma_u_nnf_0.3_snn_0.5", {10.949761390686035, 14.017608642578125, 11.70850658416748, 11.442573547363281, 9.9651784896850586}},
         {"speed_chroma_uv_nnf_0.3_snn_0.5", {10.571809768676758, 11.959690093994141, 11.187950134277344, 13.254383087158203, 10.72911262512207}},
         {"speed_chroma_v_nnf_0.3_snn_0.5", {10.19385814666748, 9.9017705917358398, 10.667393684387207, 15.066193580627441, 11.493046760559082}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_weight_var_mode", "1"}},
     {
         {"speed_chroma_u_wvm_1", {2.4947831630706787, 2.98809814453125, 2.6671772003173828, 3.2737483978271484, 2.5301449298858643}},
         {"speed_chroma_uv_wvm_1", {2.6034703254699707, 2.8650956153869629, 2.8859944343566895, 3.7586078643798828, 2.8978719711303711}},
         {"speed_chroma_v_wvm_1", {2.7121572494506836, 2.7420933246612549, 3.1048119068145752, 4.2434673309326172, 3.2655990123748779}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_weight_var_mode", "2"}},
     {
         {"speed_chroma_u_wvm_2", {2.1733064651489258, 2.7552318572998047, 2.497039794921875, 3.0677893161773682, 2.3409578800201416}},
         {"speed_chroma_uv_wvm_2", {2.3991255760192871, 2.7100176811218262, 2.7613568305969238, 3.5646133422851562, 2.7372422218322754}},
         {"speed_chroma_v_wvm_2", {2.6249446868896484, 2.6648035049438477, 3.0256738662719727, 4.0614371299743652, 3.1335265636444092}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_weight_var_mode", "3"}},
     {
         {"speed_chroma_u_wvm_3", {2.336477518081665, 2.8738975524902344, 2.5834484100341797, 3.1725327968597412, 2.4371058940887451}},
         {"speed_chroma_uv_wvm_3", {2.5028626918792725, 2.7890114784240723, 2.8248600959777832, 3.6638655662536621, 2.8191027641296387}},
         {"speed_chroma_v_wvm_3", {2.6692478656768799, 2.7041256427764893, 3.0662720203399658, 4.1551985740661621, 3.2010996341705322}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_weight_var_mode", "4"}},
     {
         {"speed_chroma_u_wvm_4", {6.6882476806640625, 8.4534730911254883, 7.1421375274658203, 7.1626496315002441, 6.1524300575256348}},
         {"speed_chroma_uv_wvm_4", {6.5152530670166016, 7.3185296058654785, 6.9996871948242188, 8.270176887512207, 6.5815162658691406}},
         {"speed_chroma_v_wvm_4", {6.3422589302062988, 6.1835861206054688, 6.8572373390197754, 9.3777046203613281, 7.0106024742126465}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_weight_var_mode", "5"}},
     {
         {"speed_chroma_u_wvm_5", {4.5846004486083984, 5.70257568359375, 4.8794798851013184, 5.1656956672668457, 4.2819600105285645}},
         {"speed_chroma_uv_wvm_5", {4.5494842529296875, 5.0075159072875977, 4.932551383972168, 5.9378104209899902, 4.6176166534423828}},
         {"speed_chroma_v_wvm_5", {4.5143685340881348, 4.3124556541442871, 4.9856228828430176, 6.7099251747131348, 4.9532737731933594}},
     }},
    {"coffee_320x240_444_crf30", "speed_chroma", {{"speed_weight_var_mode", "6"}},
     {
         {"speed_chroma_u_wvm_6", {8.80645751953125, 11.223773956298828, 9.4191675186157227, 9.2866830825805664, 8.0480165481567383}},
         {"speed_chroma_uv_wvm_6", {8.5401268005371094, 9.6361503601074219, 9.0699605941772461, 10.757028579711914, 8.652247428894043}},
         {"speed_chroma_v_wvm_6", {8.2737960815429688, 8.048527717590332, 8.7207536697387695, 12.227374076843262, 9.2564783096313477}},
     }},
    {"astronaut_320x240_422_crf33", "speed_chroma", {{"speed_max_val", "8"}},
     {
         {"speed_chroma_u_mxv_8", {8, 8, 7.2839798927307129, 6.2241973876953125, 8}},
         {"speed_chroma_uv_mxv_8", {7.8956232070922852, 8, 8, 6.8338813781738281, 8}},
         {"speed_chroma_v_mxv_8", {4.4059128761291504, 8, 8, 7.4435653686523438, 6.6316781044006348}},
     }},
    {"coffee_320x240_crf28", "speed_chroma", {{"speed_prescale", "2"}},
     {
         {"speed_chroma_u_ps_2", {10.561587333679199, 12.320388793945312, 12.239106178283691, 13.155306816101074, 13.067791938781738}},
         {"speed_chroma_uv_ps_2", {11.433398246765137, 11.992904663085938, 9.7429542541503906, 10.628555297851562, 10.571151733398438}},
         {"speed_chroma_v_ps_2", {12.305209159851074, 11.665420532226562, 7.2468018531799316, 8.1018028259277344, 8.0745105743408203}},
     }},
    {"rocket_320x240_10bit_crf30", "speed_chroma", {{"speed_prescale", "2"}, {"speed_prescale_method", "bilinear"}},
     {
         {"speed_chroma_u_ps_2_psm_bilinear", {25.49040412902832, 28.435317993164062, 26.39021110534668, 32.141292572021484, 35.645065307617188}},
         {"speed_chroma_uv_ps_2_psm_bilinear", {22.969066619873047, 25.781166076660156, 25.988327026367188, 30.868780136108398, 36.875343322753906}},
         {"speed_chroma_v_ps_2_psm_bilinear", {20.447731018066406, 23.12701416015625, 25.586441040039062, 29.596267700195312, 38.105625152587891}},
     }},
    {"motorcycle_320x240_blur", "speed_temporal", {{"speed_use_ref_diff", "true"}},
     {
         {"speed_temporal_urd", {0, 11.437621116638184, 12.696907997131348, 19.368860244750977, 19.440725326538086}},
     }},
    {"testsrc2_320x240_crf45", "speed_temporal", {{"speed_kernelscale", "1.5"}},
     {
         {"speed_temporal_ks_1.5", {0, 20.852670669555664, 33.747749328613281, 54.4310302734375, 37.255458831787109}},
     }},
    {"chelsea_322x186_rescale", "speed_temporal", {{"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"}},
     {
         {"speed_temporal_ps_0.5_psm_bilinear", {0, 0, 0, 0, 0}},
     }},
    {"rocket_320x240_10bit_crf30", "speed_temporal", {{"speed_sigma_nn", "1"}, {"speed_nn_floor", "0.5"}},
     {
         {"speed_temporal_nnf_0.5_snn_1", {0, 16.007987976074219, 9.8041181564331055, 5.4539303779602051, 12.329460144042969}},
     }},
    {"coffee_320x240_crf28", "speed_temporal", {{"speed_max_val", "3"}},
     {
         {"speed_temporal_mxv_3", {0, 3.9101054668426514, 5.636993408203125, 4.1985621452331543, 3.4916450977325439}},
     }},
    {"astronaut_176x144_crf35", "speed_temporal", {},
     {
         {"speed_temporal", {0, 0, 0, 0, 0}},
     }},
    {"mandel_176x144_noise", "speed_temporal", {{"speed_kernelscale", "0.5"}},
     {
         {"speed_temporal_ks_0.5", {0, 0, 0, 0, 0}},
     }},
    {"coffee_320x240_444_crf30", "speed_temporal", {{"speed_prescale", "0.8"}, {"speed_prescale_method", "lanczos4"}},
     {
         {"speed_temporal_ps_0.8_psm_lanczos4", {0, 4.2401199340820312, 5.0490536689758301, 7.1950669288635254, 5.5752205848693848}},
     }},
};

}  // namespace

TEST_CASE("speed options match libvmaf's, names and scores", "[speed][options]")
{
    std::map<std::string, double> worst;
    for (const auto &c : kLibvmafOptionCases) {
        std::vector<std::string> names;
        for (const auto &[n, v] : c.frames) names.push_back(n);
        const auto got = run_pair(c.pair, {{c.feature, c.opts}}, names);
        for (const auto &[n, want] : c.frames) {
            double d = 0;
            for (size_t i = 0; i < want.size(); i++) d = std::max(d, std::fabs(got.at(n)[i] - want[i]));
            INFO(c.pair << " " << n << " max |diff| " << d);
            CHECK(d <= 1e-4);
            const std::string key = c.feature + " with options";
            worst[key] = std::max(worst[key], d);
        }
    }
    for (const auto &[n, d] : worst) WARN(n << ": max |diff| against libvmaf " << d);
}

namespace {

// Feed two frames of w x h pictures (a ramp, brighter in the second frame) to
// `feature`; returns the first error, or 0 and the score `name` of frame 1.
std::pair<int, double> run_synthetic(const char *feature, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                                     const Opts &opts = {}, const char *name = nullptr)
{
    VmafContext *vmaf = nullptr;
    REQUIRE(open_quiet(&vmaf, feature, opts) == 0);
    int err = 0;
    for (unsigned i = 0; i < 2 && !err; i++) {
        VmafPicture a, b;
        REQUIRE(vmaf_picture_alloc(&a, fmt, bpc, w, h) == 0);
        REQUIRE(vmaf_picture_alloc(&b, fmt, bpc, w, h) == 0);
        for (unsigned p = 0; p < (fmt == VMAF_PIX_FMT_YUV400P ? 1u : 3u); p++)
            for (unsigned y = 0; y < a.h[p]; y++)
                for (unsigned x = 0; x < a.w[p]; x++) {
                    const unsigned v = (x * 7 + y * 3 + 20 * i) % 200 + 16, u = (x * 5 + y * 11) % 200 + 16;
                    if (bpc == 8) {
                        static_cast<uint8_t *>(a.data[p])[y * a.stride[p] + x] = uint8_t(v);
                        static_cast<uint8_t *>(b.data[p])[y * b.stride[p] + x] = uint8_t(u);
                    } else {
                        reinterpret_cast<uint16_t *>(static_cast<uint8_t *>(a.data[p]) + y * a.stride[p])[x] =
                            uint16_t(v << (bpc - 8));
                        reinterpret_cast<uint16_t *>(static_cast<uint8_t *>(b.data[p]) + y * b.stride[p])[x] =
                            uint16_t(u << (bpc - 8));
                    }
                }
        err = vmaf_read_pictures(vmaf, &a, &b, i);
        if (err) {
            vmaf_picture_unref(&a);
            vmaf_picture_unref(&b);
        }
    }
    if (!err) err = vmaf_read_pictures(vmaf, nullptr, nullptr, 0);
    double v = -1;
    if (!err && name) REQUIRE(vmaf_feature_score_at_index(vmaf, name, &v, 1) == 0);
    vmaf_close(vmaf);
    return {err, v};
}

}  // namespace

TEST_CASE("speed rejects bad options", "[speed][options]")
{
    for (const char *f : {"speed_chroma", "speed_temporal"}) {
        INFO(f);
        CHECK(use_with(f, {}) == 0);
        CHECK(use_with(f, {{"speed_kernelscale", "5"}}) == -EINVAL);
        CHECK(use_with(f, {{"speed_kernelscale", "0.05"}}) == -EINVAL);
        CHECK(use_with(f, {{"speed_prescale", "4.5"}}) == -EINVAL);
        CHECK(use_with(f, {{"speed_prescale_method", "area"}}) == -EINVAL);
        CHECK(use_with(f, {{"speed_sigma_nn", "0.05"}}) == -EINVAL);
        CHECK(use_with(f, {{"speed_nn_floor", "1.5"}}) == -EINVAL);
        CHECK(use_with(f, {{"speed_max_val", "-1"}}) == -EINVAL);
        CHECK(use_with(f, {{"speed_max_val", "1001"}}) == -EINVAL);
        CHECK(use_with(f, {{"no_such_option", "1"}}) == -EINVAL);
    }
    CHECK(use_with("speed_chroma", {{"speed_weight_var_mode", "7"}}) == -EINVAL);
    CHECK(use_with("speed_chroma", {{"speed_weight_var_mode", "-1"}}) == -EINVAL);
    // Each extractor has one option the other lacks.
    CHECK(use_with("speed_chroma", {{"speed_use_ref_diff", "true"}}) == -EINVAL);
    CHECK(use_with("speed_temporal", {{"speed_weight_var_mode", "1"}}) == -EINVAL);
    // A kernel scale inside the range but not one float_vif's filters support
    // (libvmaf accepts it and then crashes): refused when the pictures arrive.
    CHECK(use_with("speed_chroma", {{"speed_kernelscale", "0.3"}}) == 0);
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV444P, 8, 96, 96, {{"speed_kernelscale", "0.3"}}).first ==
          -EINVAL);
    CHECK(run_synthetic("speed_temporal", VMAF_PIX_FMT_YUV400P, 8, 96, 96, {{"speed_kernelscale", "3.2"}}).first ==
          -EINVAL);
    CHECK(run_synthetic("speed_temporal", VMAF_PIX_FMT_YUV400P, 8, 96, 96, {{"speed_kernelscale", "3"}},
                        "speed_temporal_ks_3")
              .first == 0);
}

TEST_CASE("speed needs planes of at least 80x80", "[speed][limits]")
{
    // speed_temporal works on luma, speed_chroma on the chroma planes (4:2:0
    // halves both ways, 4:2:2 the width; libvmaf rounds the halves down).
    CHECK(run_synthetic("speed_temporal", VMAF_PIX_FMT_YUV400P, 8, 80, 80, {}, "speed_temporal").first == 0);
    CHECK(run_synthetic("speed_temporal", VMAF_PIX_FMT_YUV420P, 10, 80, 80, {}, "speed_temporal").first == 0);
    CHECK(run_synthetic("speed_temporal", VMAF_PIX_FMT_YUV400P, 8, 79, 80).first == -EINVAL);
    CHECK(run_synthetic("speed_temporal", VMAF_PIX_FMT_YUV400P, 8, 80, 79).first == -EINVAL);
    CHECK(run_synthetic("speed_temporal", VMAF_PIX_FMT_YUV400P, 8, 8, 8).first == -EINVAL);
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV444P, 8, 80, 80, {}, "speed_chroma_uv").first == 0);
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV444P, 8, 80, 79).first == -EINVAL);
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV422P, 8, 160, 80, {}, "speed_chroma_uv").first == 0);
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV422P, 8, 159, 80).first == -EINVAL);
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV420P, 8, 160, 160, {}, "speed_chroma_uv").first == 0);
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV420P, 10, 161, 161, {}, "speed_chroma_uv").first == 0);
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV420P, 8, 160, 159).first == -EINVAL);
    // The golden 176x144 pairs: chroma is 88x72.
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV420P, 8, 176, 144).first == -EINVAL);
    // The limit applies after speed_prescale.
    CHECK(run_synthetic("speed_temporal", VMAF_PIX_FMT_YUV400P, 8, 160, 160, {{"speed_prescale", "0.5"}},
                        "speed_temporal_ps_0.5")
              .first == 0);
    CHECK(run_synthetic("speed_temporal", VMAF_PIX_FMT_YUV400P, 8, 158, 160, {{"speed_prescale", "0.5"}}).first ==
          -EINVAL);
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV420P, 8, 80, 80, {{"speed_prescale", "2"}},
                        "speed_chroma_u_ps_2")
              .first == 0);
    // No chroma planes.
    CHECK(run_synthetic("speed_chroma", VMAF_PIX_FMT_YUV400P, 8, 160, 160).first == -EINVAL);
}

TEST_CASE("speed_temporal scores 0 on the first frame and on identical pairs", "[speed]")
{
    const auto got = run_pair("chelsea_176x144_identical", {{"speed_temporal", {}}, {"speed_temporal", {{"speed_use_ref_diff", "true"}}}},
                              {"speed_temporal", "speed_temporal_urd"});
    for (const char *n : {"speed_temporal", "speed_temporal_urd"})
        for (double v : got.at(n)) CHECK(v == 0.0);
    const auto moving = run_pair("coffee_320x240_crf28", {{"speed_temporal", {}}}, {"speed_temporal"});
    CHECK(moving.at("speed_temporal")[0] == 0.0);
    CHECK(moving.at("speed_temporal")[1] > 0.0);
}

TEST_CASE("speed_chroma clips at speed_max_val; speed_temporal ignores it, as libvmaf", "[speed][options]")
{
    const auto def = run_pair("coffee_320x240_444_crf30", {{"speed_chroma", {}}, {"speed_temporal", {}}},
                              {"speed_chroma_u", "speed_chroma_v", "speed_chroma_uv", "speed_temporal"});
    const auto cap = run_pair("coffee_320x240_444_crf30",
                              {{"speed_chroma", {{"speed_max_val", "9"}}}, {"speed_temporal", {{"speed_max_val", "2"}}}},
                              {"speed_chroma_u_mxv_9", "speed_chroma_v_mxv_9", "speed_chroma_uv_mxv_9",
                               "speed_temporal_mxv_2"});
    for (const char *n : {"speed_chroma_u", "speed_chroma_v", "speed_chroma_uv"})
        for (size_t i = 0; i < def.at(n).size(); i++)
            CHECK(cap.at(std::string(n) + "_mxv_9")[i] == std::min(def.at(n)[i], 9.0));
    CHECK(cap.at("speed_temporal_mxv_2") == def.at("speed_temporal"));
}

TEST_CASE("speed_chroma is independent of the thread count", "[speed][threads]")
{
    const std::vector<FeatureRequest> f = {{"speed_chroma", {}}, {"speed_temporal", {}}, {"psnr", {}}};
    const auto one = run_pair("astronaut_320x240_422_crf33", f, {"speed_chroma_uv", "speed_temporal"}, 1);
    const auto four = run_pair("astronaut_320x240_422_crf33", f, {"speed_chroma_uv", "speed_temporal"}, 4);
    CHECK(one == four);
}

TEST_CASE("speed's vector covariance sums equal the portable ones to the bit", "[speed][simd]")
{
    using namespace vmaf::speed;
    const CovSumFn best = cov_sum_kernel(CovKernels::Best), portable = cov_sum_kernel(CovKernels::Portable);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-40.0f, 40.0f);
    const int stride = 64, rows = 12;
    std::vector<float> x(std::size_t(stride) * rows), y(x.size());
    for (auto &v : x) v = u(rng);
    for (auto &v : y) v = u(rng);
    unsigned checked = 0;
    for (int w = 1; w <= 60; w++)
        for (int h : {1, 3, 11})
            for (int off : {0, 1, 3}) {
                const double mx = double(u(rng)) / 7.0, my = double(u(rng)) / 3.0;
                const double a = best(x.data() + off, y.data() + 2 * off, stride, w, h, mx, my);
                const double b = portable(x.data() + off, y.data() + 2 * off, stride, w, h, mx, my);
                INFO("w " << w << " h " << h << " offset " << off);
                CHECK(std::memcmp(&a, &b, sizeof a) == 0);
                checked++;
            }
    CHECK(checked == 60 * 3 * 3);
}
