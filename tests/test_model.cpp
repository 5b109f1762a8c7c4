// SPDX-License-Identifier: BSD-2-Clause-Patent
// VMAF models: loading (path, version, model directory), prediction against
// Netflix libvmaf's own per-frame scores from libvmaf's own per-frame features,
// bootstrap statistics, pooling, flags, overloads and error handling.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "env.h"
#include "golden.h"
#include "stderr_capture.h"
#include "libvmaf/libvmaf.h"
#include "model/model.h"
#include "model/pooling.h"
#include "model/svm.h"

using namespace vmaf::test;
namespace fs = std::filesystem;

namespace {

constexpr double kTolerance = 1e-4;  // the project-wide parity bound; results are far below it

// ---- helpers ----------------------------------------------------------------


// A scratch directory, removed at the end.
class TempDir {
public:
    TempDir()
    {
        std::string tmpl = (fs::temp_directory_path() / "vmaf-model-test-XXXXXX").string();
        REQUIRE(mkdtemp(tmpl.data()) != nullptr);
        path_ = tmpl;
    }
    ~TempDir() { fs::remove_all(path_); }
    std::string write(const std::string &name, const std::string &text) const
    {
        const fs::path p = path_ / name;
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
    std::string path() const { return path_.string(); }

private:
    fs::path path_;
};

std::string models_dir()
{
    return vmaf::model_directory();
}

std::string model_file(const std::string &version)
{
    return models_dir() + "/" + version + ".json";
}

// Per-frame lookup into one golden frame.
vmaf::FeatureLookup golden_lookup(const std::map<std::string, double> &frame)
{
    return [&frame](const std::string &name, double *v) {
        const auto it = frame.find(name);
        if (it == frame.end()) return -ENOENT;
        *v = it->second;
        return 0;
    };
}

// The features of `m` all have an extractor in this build (their output names
// are then exactly libvmaf's).
bool extractors_known(const vmaf::Model &m, std::string *missing)
{
    for (const auto &f : m.features())
        if (!f.extractor) {
            *missing = f.provided;
            return false;
        }
    return true;
}

struct Handles {
    VmafModel *model = nullptr;
    VmafModelCollection *collection = nullptr;
    ~Handles()
    {
        vmaf_model_destroy(model);
        vmaf_model_collection_destroy(collection);
    }
};

// Pooled score of a per-frame series against libvmaf's pooled_metrics.
void check_pooled(const std::string &label, const std::vector<double> &series,
                  const std::map<std::string, double> &expected, double *max_diff)
{
    const std::pair<const char *, VmafPoolingMethod> methods[] = {
        {"min", VMAF_POOL_METHOD_MIN},
        {"max", VMAF_POOL_METHOD_MAX},
        {"mean", VMAF_POOL_METHOD_MEAN},
        {"harmonic_mean", VMAF_POOL_METHOD_HARMONIC_MEAN},
    };
    for (const auto &[key, method] : methods) {
        const double got = vmaf::pool(series, method);
        const double d = std::fabs(got - expected.at(key));
        INFO(label << " pooled " << key << " got " << got << " expected " << expected.at(key));
        CHECK(d <= kTolerance);
        *max_diff = std::max(*max_diff, d);
    }
}

// A one-feature model whose prediction is known in closed form.
std::string synthetic_model(const std::string &extra_dict_entries, const std::string &norm = "none",
                            const std::string &svm_tail = "rho -150\nSV\n10 1:0.5 \n")
{
    std::ostringstream s;
    s << R"({"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": ")" << norm << R"(",)"
      << R"("feature_names": ["VMAF_integer_feature_vif_scale0_score"],)" << extra_dict_entries
      << R"("model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 1\n)";
    for (char c : svm_tail) {
        if (c == '\n') s << "\\n";
        else s << c;
    }
    s << "\"}}";
    return s.str();
}

// The synthetic model's raw (denormalized, untransformed, unclipped) score at x:
// 10 * exp(-0.5 (x - 0.5)^2) + 150.
double synthetic_raw(double x)
{
    return 10.0 * std::exp(-0.5 * (x - 0.5) * (x - 0.5)) + 150.0;
}

double predict_at(const vmaf::Model &m, double x, uint64_t skip = 0)
{
    double s = -1;
    const int e = m.predict([x](const std::string &, double *v) { *v = x; return 0; }, &s, skip);
    REQUIRE(e == 0);
    return s;
}

VmafModel *load_path(const std::string &path, uint64_t flags = 0, const char *name = nullptr)
{
    VmafModelConfig cfg{name, flags};
    VmafModel *m = nullptr;
    REQUIRE(vmaf_model_load_from_path(&m, &cfg, path.c_str()) == 0);
    REQUIRE(m != nullptr);
    return m;
}

}  // namespace

// ---- loading ----------------------------------------------------------------

TEST_CASE("every model in the model directory loads by path and by version", "[model]")
{
    // The directory's own files and those of its folders (upstream keeps the v1
    // family in vmaf_v1.0.16/): each is found by its version name alone.
    std::vector<fs::path> files;
    for (const auto &e : fs::directory_iterator(models_dir())) {
        if (e.path().extension() == ".json") files.push_back(e.path());
        if (!e.is_directory()) continue;
        for (const auto &f : fs::directory_iterator(e.path()))
            if (f.path().extension() == ".json") files.push_back(f.path());
    }
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 5);
    unsigned v1 = 0;
    for (const auto &p : files) {
        const std::string version = p.stem().string();
        INFO(version);
        // The expectation from the file itself: its feature list and whether it
        // enables its score transform.
        nlohmann::json doc;
        std::ifstream(p) >> doc;
        const nlohmann::json &dict = doc.contains("model_dict") ? doc["model_dict"] : doc["0"]["model_dict"];
        const size_t n_features = dict["feature_names"].size();
        const bool transform = dict.contains("score_transform") && dict["score_transform"].value("enabled", false);
        if (version.rfind("vmaf_v1.", 0) == 0) {
            v1++;
            CHECK(n_features == 4);  // cambi, speed_chroma_uv, integer adm3, integer motion3
            CHECK(transform);
        } else {
            CHECK(n_features == 6);
        }
        VmafModelConfig cfg{nullptr, VMAF_MODEL_FLAGS_DEFAULT};
        Handles by_path, by_version;
        StderrCapture quiet;  // the first attempt on a collection says so at info level only
        if (vmaf_model_load_from_path(&by_path.model, &cfg, p.c_str()) == 0) {
            REQUIRE(vmaf_model_load(&by_version.model, &cfg, version.c_str()) == 0);
        } else {
            CHECK(by_path.model == nullptr);
            REQUIRE(vmaf_model_collection_load_from_path(&by_path.model, &by_path.collection, &cfg,
                                                         p.c_str()) == 0);
            REQUIRE(vmaf_model_collection_load(&by_version.model, &by_version.collection, &cfg,
                                               version.c_str()) == 0);
            CHECK(by_path.collection->impl.name() == "vmaf");
            CHECK(by_path.collection->impl.models().size() == 20);
        }
        CHECK(quiet.text().find("ERROR") == std::string::npos);
        const vmaf::Model &m = by_path.model->impl;
        CHECK(m.name() == "vmaf");
        CHECK(m.features().size() == n_features);
        // libvmaf 3.x defaults: clip on, transform only where the file enables it.
        CHECK(m.clip_enabled());
        CHECK(m.transform_enabled() == transform);
        CHECK(by_version.model->impl.features().size() == m.features().size());
    }
    // The model directory of the tests has upstream's layout: the v1 families each
    // in a folder named after them (vmaf_v1.0.16/, vmaf_v1.0.16_hfr/, ...). The
    // expected count is what those folders hold on disk, whichever families are there.
    unsigned v1_on_disk = 0, v1_folders = 0;
    for (const auto &e : fs::directory_iterator(models_dir())) {
        const std::string folder = e.path().filename().string();
        if (!e.is_directory() || folder.rfind("vmaf_v1.", 0) != 0) continue;
        v1_folders++;
        for (const auto &f : fs::directory_iterator(e.path())) {
            if (f.path().extension() != ".json") continue;
            INFO(f.path());
            CHECK(f.path().stem().string().rfind(folder + "_", 0) == 0);  // named after its folder
            v1_on_disk++;
        }
    }
    CHECK(v1_folders >= 1);
    CHECK(v1_on_disk >= 4);
    CHECK(v1 == v1_on_disk);
}

TEST_CASE("feature output names follow libvmaf", "[model]")
{
    Handles h;
    h.model = load_path(model_file("vmaf_v0.6.1"));
    const auto &f = h.model->impl.features();
    REQUIRE(f.size() == 6);
    CHECK(f[0].provided == "VMAF_integer_feature_adm2_score");
    CHECK(f[1].output_name == "integer_motion2");
    CHECK(f[2].output_name == "integer_vif_scale0");
    CHECK(f[5].output_name == "integer_vif_scale3");
    CHECK(f[2].opts.empty());

    Handles neg;
    neg.model = load_path(model_file("vmaf_v0.6.1neg"));
    const auto &g = neg.model->impl.features();
    // JSON 1.0 is stored as libvmaf's dictionary stores it.
    REQUIRE(g[2].opts.size() == 1);
    CHECK(g[2].opts[0] == std::pair<std::string, std::string>{"vif_enhn_gain_limit", "1"});
    CHECK(g[2].output_name == "integer_vif_scale0_egl_1");
    CHECK(g[1].output_name == "integer_motion2");
    if (g[0].extractor) CHECK(g[0].output_name == "integer_adm2_egl_1");
    else WARN("adm extractor not registered: integer_adm2_egl_1 not checked");

    VmafModelConfig named{"my_vmaf", 0};
    VmafModel *m = nullptr;
    REQUIRE(vmaf_model_load_from_path(&m, &named, model_file("vmaf_v0.6.1").c_str()) == 0);
    CHECK(m->impl.name() == "my_vmaf");
    vmaf_model_destroy(m);
}

TEST_CASE("vmaf_model_load finds versions through VMAF_MODEL_DIR", "[model]")
{
    TempDir dir;
    std::ifstream in(model_file("vmaf_v0.6.1"), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    dir.write("renamed_model.json", text.str());
    VmafModelConfig cfg{nullptr, 0};

    {
        EnvOverride env("VMAF_MODEL_DIR", dir.path().c_str());
        Handles h;
        REQUIRE(vmaf_model_load(&h.model, &cfg, "renamed_model") == 0);
        CHECK(h.model->impl.features().size() == 6);

        // A version that is neither there nor built in: -EINVAL (as libvmaf), and
        // the message names the directory and where it came from.
        VmafModel *m = reinterpret_cast<VmafModel *>(&cfg);  // must be reset to NULL
        StderrCapture cap;
        CHECK(vmaf_model_load(&m, &cfg, "vmaf_v9.9.9") == -EINVAL);
        const std::string msg = cap.text();
        CHECK(m == nullptr);
        CHECK(msg.find(dir.path()) != std::string::npos);
        CHECK(msg.find("VMAF_MODEL_DIR") != std::string::npos);
        CHECK(msg.find("vmaf_v9.9.9") != std::string::npos);

        VmafModelCollection *c = nullptr;
        StderrCapture cap2;
        CHECK(vmaf_model_collection_load(&m, &c, &cfg, "vmaf_b_v9.9.9") == -EINVAL);
        CHECK(cap2.text().find("VMAF_MODEL_DIR") != std::string::npos);
        CHECK(m == nullptr);
        CHECK(c == nullptr);
#if VMAF_TEST_BUILT_IN_MODELS
        // A built-in version the directory lacks: the built-in model (libvmaf has
        // only those), as model and as collection.
        Handles builtin;
        REQUIRE(vmaf_model_load(&builtin.model, &cfg, "vmaf_v0.6.1") == 0);
        CHECK(builtin.model->impl.features().size() == 6);
        Handles coll;
        REQUIRE(vmaf_model_collection_load(&coll.model, &coll.collection, &cfg, "vmaf_b_v0.6.3") == 0);
        CHECK(coll.collection->impl.models().size() == 20);
#endif
    }
    {
        // A file of $VMAF_MODEL_DIR overrides the built-in model of its name: here
        // vmaf_v0.6.1.json holds a v1 model (4 features, not 6).
        TempDir over;
        std::ifstream v1(models_dir() + "/vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json", std::ios::binary);
        std::stringstream v1_text;
        v1_text << v1.rdbuf();
        over.write("vmaf_v0.6.1.json", v1_text.str());
        EnvOverride env("VMAF_MODEL_DIR", over.path().c_str());
        vmaf::ModelSource src;
        REQUIRE(vmaf::find_model_version("vmaf_v0.6.1", &src, nullptr) == 0);
        CHECK(src.built_in == nullptr);
        CHECK(src.path == over.path() + "/vmaf_v0.6.1.json");
        Handles h;
        REQUIRE(vmaf_model_load(&h.model, &cfg, "vmaf_v0.6.1") == 0);
        CHECK(h.model->impl.features().size() == 4);
    }
    {
        // An empty variable counts as unset: the build-time directory is used.
        EnvOverride env("VMAF_MODEL_DIR", "");
        CHECK(vmaf::model_directory() != "");
    }
    // Names that are not plain file names are refused.
    VmafModel *m = nullptr;
    StderrCapture cap;
    CHECK(vmaf_model_load(&m, &cfg, "../models/vmaf_v0.6.1") == -EINVAL);
    CHECK(vmaf_model_load(&m, &cfg, "") == -EINVAL);
    CHECK(m == nullptr);
}

TEST_CASE("versions in a folder of the model directory: the v1 family by name", "[model]")
{
    // The real model directory: vmaf_v1.0.16_* are in its folder vmaf_v1.0.16/.
    for (const char *v : {"vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_3d0h_2160",
                          "vmaf_v1.0.16_1d5h_2160"}) {
        INFO(v);
        std::string path, err;
        REQUIRE(vmaf::model_version_path(v, &path, &err) == 0);
        CHECK(path == models_dir() + "/vmaf_v1.0.16/" + v + ".json");
        VmafModelConfig cfg{nullptr, 0};
        Handles h;
        REQUIRE(vmaf_model_load(&h.model, &cfg, v) == 0);
        const auto &f = h.model->impl.features();
        REQUIRE(f.size() == 4);
        CHECK(f[0].provided == "Cambi_feature_cambi_score");
        CHECK(f[1].provided == "Speed_chroma_feature_speed_chroma_uv_score");
        CHECK(f[2].provided == "VMAF_integer_feature_adm3_score");
        CHECK(f[3].provided == "VMAF_integer_feature_motion3_score");
    }

    TempDir dir;
    std::ifstream in(model_file("vmaf_v0.6.1"), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    fs::create_directory(fs::path(dir.path()) / "family_a");
    fs::create_directory(fs::path(dir.path()) / "family_b");
    dir.write("family_a/only_here.json", text.str());
    dir.write("family_a/twice.json", text.str());
    dir.write("family_b/twice.json", text.str());
    dir.write("family_b/top.json", "not a model");
    dir.write("top.json", text.str());
    fs::create_directories(fs::path(dir.path()) / "family_a" / "deeper");
    dir.write("family_a/deeper/too_deep.json", text.str());
    EnvOverride env("VMAF_MODEL_DIR", dir.path().c_str());
    VmafModelConfig cfg{nullptr, 0};
    {
        Handles h;
        REQUIRE(vmaf_model_load(&h.model, &cfg, "only_here") == 0);
        CHECK(h.model->impl.features().size() == 6);
    }
    {
        // The directory's own file comes first.
        Handles h;
        REQUIRE(vmaf_model_load(&h.model, &cfg, "top") == 0);
    }
    // In two folders: refused, naming both; one level down only.
    VmafModel *m = nullptr;
    StderrCapture cap;
    CHECK(vmaf_model_load(&m, &cfg, "twice") == -EINVAL);
    CHECK(vmaf_model_load(&m, &cfg, "too_deep") == -EINVAL);
    CHECK(vmaf_model_load(&m, &cfg, "family_a") == -EINVAL);
    CHECK(m == nullptr);
    const std::string msg = cap.text();
    CHECK(msg.find("ambiguous") != std::string::npos);
    CHECK(msg.find("family_a/twice.json") != std::string::npos);
    CHECK(msg.find("family_b/twice.json") != std::string::npos);
    CHECK(msg.find("no model 'too_deep'") != std::string::npos);
}

// ---- built-in models --------------------------------------------------------

namespace {

// The model files scripts/get-models.sh provides (its list `models=( ... )`),
// as paths relative to the model directory.
[[maybe_unused]] std::vector<std::string> get_models_list()
{
    std::ifstream in(std::string(VMAF_TEST_SOURCE_DIR) + "/scripts/get-models.sh");
    REQUIRE(in);
    std::vector<std::string> files;
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        const size_t b = line.find_first_not_of(' ');
        const std::string t = b == std::string::npos ? "" : line.substr(b);
        if (t == "models=(") inside = true;
        else if (inside && t == ")") break;
        else if (inside && !t.empty() && t[0] != '#') files.push_back(t);
    }
    return files;
}

}  // namespace

#if VMAF_TEST_BUILT_IN_MODELS
TEST_CASE("built-in models: every model get-models.sh provides, byte for byte", "[model][built-in]")
{
    // The build embedded the model directory the tests read (scripts/get-models.sh's).
    const std::vector<std::string> listed = get_models_list();
    REQUIRE(listed.size() >= 9);
    std::map<std::string, std::string_view> built_in;
    for (const vmaf::BuiltInModel &b : vmaf::built_in_models()) {
        INFO(b.version);
        CHECK(built_in.count(std::string(b.version)) == 0);
        built_in[std::string(b.version)] = b.json;
    }
    CHECK(built_in.size() == listed.size());
    for (const std::string &f : listed) {
        const std::string version = fs::path(f).stem().string();
        INFO(f);
        REQUIRE(built_in.count(version) == 1);
        std::ifstream in(models_dir() + "/" + f, std::ios::binary);
        REQUIRE(in);
        std::stringstream text;
        text << in.rdbuf();
        CHECK(built_in[version] == text.str());
    }
}

TEST_CASE("with VMAF_MODEL_DIR unset, versions are the built-in models and score as libvmaf", "[model][built-in]")
{
    EnvOverride env("VMAF_MODEL_DIR", nullptr);
    for (const char *v : {"vmaf_v0.6.1", "vmaf_b_v0.6.3", "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_hfr_3d0h",
                          "vmaf_v1.0.16_hfr_1d5h_2160"}) {
        INFO(v);
        vmaf::ModelSource src;
        REQUIRE(vmaf::find_model_version(v, &src, nullptr) == 0);
        REQUIRE(src.built_in != nullptr);
        CHECK(src.built_in->version == v);
        CHECK(src.path.empty());
    }

    // The default model by name on a golden pair through the C API: libvmaf's scores.
    const std::string pair = "coffee_320x240_crf28";
    auto ref = load_y4m(data_dir() + "/" + pair + "_ref.y4m");
    auto dis = load_y4m(data_dir() + "/" + pair + "_dis.y4m");
    REQUIRE(ref.size() == dis.size());
    const Expected exp = load_expected(data_dir() + "/" + pair + ".libvmaf.json");
    REQUIRE(exp.frames.size() == ref.size());
    VmafConfiguration vcfg{};
    vcfg.log_level = VMAF_LOG_LEVEL_ERROR;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, vcfg) == 0);
    VmafModelConfig cfg{"vmaf", VMAF_MODEL_FLAGS_DEFAULT};
    Handles h;
    REQUIRE(vmaf_model_load(&h.model, &cfg, "vmaf_v0.6.1") == 0);
    REQUIRE(vmaf_use_features_from_model(vmaf, h.model) == 0);
    for (unsigned i = 0; i < ref.size(); i++) REQUIRE(vmaf_read_pictures(vmaf, &ref[i], &dis[i], i) == 0);
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    double max_diff = 0;
    for (unsigned i = 0; i < ref.size(); i++) {
        double got = 0;
        REQUIRE(vmaf_score_at_index(vmaf, h.model, &got, i) == 0);
        max_diff = std::max(max_diff, std::fabs(got - exp.frames[i].at("vmaf")));
    }
    double mean = 0;
    REQUIRE(vmaf_score_pooled(vmaf, h.model, VMAF_POOL_METHOD_MEAN, &mean, 0, unsigned(ref.size()) - 1) == 0);
    const double want = exp.pooled.at("vmaf").at("mean");
    INFO("pooled mean " << mean << ", libvmaf " << want << "; per-frame max |diff| " << max_diff);
    CHECK(std::fabs(mean - want) <= kTolerance);
    CHECK(max_diff <= kTolerance);
    std::printf("built-in vmaf_v0.6.1 on %s: mean %.6f (libvmaf %.6f), per-frame max |diff| %g\n", pair.c_str(),
                mean, want, max_diff);
    vmaf_close(vmaf);
    unref_all(ref);
    unref_all(dis);
}
#endif

TEST_CASE("a version neither built in nor on disk: one log line listing the built-in names", "[model][built-in]")
{
    VmafModelConfig cfg{nullptr, 0};
    VmafModel *m = nullptr;
    StderrCapture cap;
    CHECK(vmaf_model_load(&m, &cfg, "vmaf_v0.0.0_nowhere") == -EINVAL);
    CHECK(m == nullptr);
    const std::string msg = cap.text();
    INFO(msg);
    CHECK(std::count(msg.begin(), msg.end(), '\n') == 1);
    CHECK(msg.find("no model 'vmaf_v0.0.0_nowhere'") != std::string::npos);
    CHECK(msg.find(models_dir()) != std::string::npos);
    for (const vmaf::BuiltInModel &b : vmaf::built_in_models())
        CHECK(msg.find(std::string(b.version)) != std::string::npos);
#if VMAF_TEST_BUILT_IN_MODELS
    // Every name get-models.sh provides, in the list.
    for (const std::string &f : get_models_list()) {
        const std::string v = fs::path(f).stem().string();
        INFO(v);
        CHECK((msg.find(v + ",") != std::string::npos || msg.find(v + ")") != std::string::npos));
    }
#else
    CHECK(msg.find("none in this build") != std::string::npos);
#endif
}

// ---- golden parity ----------------------------------------------------------

namespace {

// Score every frame of every golden pair with `version`, from libvmaf's own
// per-frame features, and compare with libvmaf's score (and pooled scores).
void check_model_on_golden(const std::string &version, const std::string &golden_suffix)
{
    Handles h;
    h.model = load_path(model_file(version));
    const vmaf::Model &m = h.model->impl;
    std::string missing;
    if (!extractors_known(m, &missing)) {
        WARN(version << ": no extractor provides " << missing << " yet; output names unverified, skipped");
        return;
    }
    double worst = 0, worst_pooled = 0;
    unsigned pairs = 0;
    for (const auto &pair : golden_pairs()) {
        const std::string path = data_dir() + "/" + pair + golden_suffix;
        if (!fs::exists(path)) continue;
        const Expected exp = load_expected(path);
        REQUIRE(!exp.frames.empty());
        std::vector<double> series;
        double max_diff = 0;
        for (size_t i = 0; i < exp.frames.size(); i++) {
            double s;
            REQUIRE(m.predict(golden_lookup(exp.frames[i]), &s) == 0);
            max_diff = std::max(max_diff, std::fabs(s - exp.frames[i].at("vmaf")));
            series.push_back(s);
        }
        INFO(version << " " << pair << " max |diff| " << max_diff);
        CHECK(max_diff <= kTolerance);
        check_pooled(version + " " + pair, series, exp.pooled.at("vmaf"), &worst_pooled);
        std::printf("%-16s %-32s vmaf max|diff| %.3g\n", version.c_str(), pair.c_str(), max_diff);
        worst = std::max(worst, max_diff);
        pairs++;
    }
    CHECK(pairs >= 9);
    std::printf("%-16s all pairs: vmaf max|diff| %.3g, pooled max|diff| %.3g\n", version.c_str(), worst,
                worst_pooled);
}

}  // namespace

TEST_CASE("vmaf_v0.6.1 matches libvmaf on every golden pair", "[model][golden]")
{
    check_model_on_golden("vmaf_v0.6.1", ".libvmaf.json");
}

TEST_CASE("vmaf_v0.6.1neg matches libvmaf on every golden pair", "[model][golden]")
{
    check_model_on_golden("vmaf_v0.6.1neg", ".libvmaf.vmaf_v0.6.1neg.json");
}

TEST_CASE("vmaf_4k_v0.6.1 matches libvmaf on every golden pair", "[model][golden]")
{
    check_model_on_golden("vmaf_4k_v0.6.1", ".libvmaf.vmaf_4k_v0.6.1.json");
}

TEST_CASE("vmaf_b_v0.6.3 bootstrap statistics match libvmaf", "[model][golden]")
{
    Handles h;
    VmafModelConfig cfg{nullptr, 0};
    REQUIRE(vmaf_model_collection_load_from_path(&h.model, &h.collection, &cfg,
                                                 model_file("vmaf_b_v0.6.3").c_str()) == 0);
    const vmaf::Model &main = h.model->impl;
    const vmaf::ModelCollection &coll = h.collection->impl;
    REQUIRE(coll.models().size() == 20);
    CHECK(main.name() == "vmaf");
    CHECK(coll.name() == "vmaf");
    CHECK(coll.models()[0].name() == "vmaf_0001");
    CHECK(coll.models()[19].name() == "vmaf_0020");

    std::string missing;
    if (!extractors_known(main, &missing)) {
        WARN("vmaf_b_v0.6.3: no extractor provides " << missing << " yet; skipped");
        return;
    }
    std::map<std::string, double> worst;
    double worst_pooled = 0;
    unsigned pairs = 0;
    for (const auto &pair : golden_pairs()) {
        const std::string path = data_dir() + "/" + pair + ".libvmaf.vmaf_b_v0.6.3.json";
        if (!fs::exists(path)) continue;
        const Expected exp = load_expected(path);
        std::map<std::string, std::vector<double>> series;
        std::map<std::string, double> max_diff;
        auto compare = [&](const std::string &key, double got, const std::map<std::string, double> &frame) {
            max_diff[key] = std::max(max_diff[key], std::fabs(got - frame.at(key)));
            series[key].push_back(got);
        };
        for (const auto &frame : exp.frames) {
            const auto lookup = golden_lookup(frame);
            double s;
            REQUIRE(main.predict(lookup, &s) == 0);
            compare("vmaf", s, frame);
            VmafModelCollectionScore cs{};
            std::vector<double> each;
            REQUIRE(coll.predict(lookup, &cs, &each) == 0);
            CHECK(cs.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
            compare("vmaf_bagging", cs.bootstrap.bagging_score, frame);
            compare("vmaf_stddev", cs.bootstrap.stddev, frame);
            compare("vmaf_ci_p95_lo", cs.bootstrap.ci.p95.lo, frame);
            compare("vmaf_ci_p95_hi", cs.bootstrap.ci.p95.hi, frame);
            REQUIRE(each.size() == 20);
            for (size_t i = 0; i < each.size(); i++) {
                CHECK(coll.models()[i].name() == "vmaf_" + std::string(i < 9 ? "000" : "00") + std::to_string(i + 1));
                compare("vmaf_0001..0020", each[i], {{"vmaf_0001..0020", frame.at(coll.models()[i].name())}});
            }
        }
        for (const auto &[key, d] : max_diff) {
            INFO(pair << " " << key << " max |diff| " << d);
            CHECK(d <= kTolerance);
            worst[key] = std::max(worst[key], d);
        }
        for (const char *key : {"vmaf", "vmaf_bagging", "vmaf_stddev", "vmaf_ci_p95_lo", "vmaf_ci_p95_hi"})
            check_pooled(pair + " " + key, series[key], exp.pooled.at(key), &worst_pooled);
        pairs++;
    }
    CHECK(pairs >= 8);
    for (const auto &[key, d] : worst) std::printf("vmaf_b_v0.6.3    all pairs: %-16s max|diff| %.3g\n", key.c_str(), d);
    std::printf("vmaf_b_v0.6.3    all pairs: pooled max|diff| %.3g\n", worst_pooled);
}

TEST_CASE("overloading vmaf_v0.6.1 with egl=1 gives vmaf_v0.6.1neg", "[model][golden]")
{
    // The two files differ only in feature_opts_dicts.
    Handles h, neg;
    h.model = load_path(model_file("vmaf_v0.6.1"));
    neg.model = load_path(model_file("vmaf_v0.6.1neg"));
    for (const auto &[extractor, key] : {std::pair{"vif", "vif_enhn_gain_limit"}, std::pair{"adm", "adm_enhn_gain_limit"}}) {
        VmafFeatureDictionary *d = nullptr;
        REQUIRE(vmaf_feature_dictionary_set(&d, key, "1.0") == 0);
        REQUIRE(vmaf_model_feature_overload(h.model, extractor, d) == 0);  // consumes d
    }
    const auto &a = h.model->impl.features(), &b = neg.model->impl.features();
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); i++) {
        INFO(a[i].provided);
        CHECK(a[i].opts == b[i].opts);
        CHECK(a[i].output_name == b[i].output_name);
    }
    CHECK(a[2].output_name == "integer_vif_scale0_egl_1");
    std::string missing;
    if (!extractors_known(h.model->impl, &missing)) {
        WARN("no extractor provides " << missing << " yet; overload scores not compared");
        return;
    }
    double max_diff = 0;
    for (const auto &pair : golden_pairs()) {
        const Expected exp = load_expected(data_dir() + "/" + pair + ".libvmaf.vmaf_v0.6.1neg.json");
        for (const auto &frame : exp.frames) {
            double s;
            REQUIRE(h.model->impl.predict(golden_lookup(frame), &s) == 0);
            max_diff = std::max(max_diff, std::fabs(s - frame.at("vmaf")));
        }
    }
    CHECK(max_diff <= kTolerance);
    std::printf("vmaf_v0.6.1 + egl=1 overloads vs vmaf_v0.6.1neg golden: max|diff| %.3g\n", max_diff);
}

TEST_CASE("feature overloads: validation, no-ops and collections", "[model]")
{
    Handles h;
    h.model = load_path(model_file("vmaf_v0.6.1"));
    const auto before = h.model->impl.features();

    // An extractor the model does not use: accepted, nothing changes.
    VmafFeatureDictionary *d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "enable_chroma", "true") == 0);
    CHECK(vmaf_model_feature_overload(h.model, "psnr", d) == 0);
    CHECK(h.model->impl.features()[2].output_name == before[2].output_name);

    // Unknown or out-of-range options of a used extractor: -EINVAL, model unchanged.
    StderrCapture cap;
    d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "no_such_option", "1") == 0);
    CHECK(vmaf_model_feature_overload(h.model, "vif", d) == -EINVAL);
    d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "vif_enhn_gain_limit", "0.5") == 0);
    CHECK(vmaf_model_feature_overload(h.model, "vif", d) == -EINVAL);
    const std::string msg = cap.text();
    CHECK(msg.find("no_such_option") != std::string::npos);
    CHECK(msg.find("vif_enhn_gain_limit") != std::string::npos);
    for (size_t i = 0; i < before.size(); i++) {
        CHECK(h.model->impl.features()[i].output_name == before[i].output_name);
        CHECK(h.model->impl.features()[i].opts == before[i].opts);
    }

    // Collections: the main model and every bootstrap model.
    Handles b;
    VmafModelConfig cfg{nullptr, 0};
    REQUIRE(vmaf_model_collection_load_from_path(&b.model, &b.collection, &cfg,
                                                 model_file("vmaf_b_v0.6.3").c_str()) == 0);
    d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "vif_enhn_gain_limit", "1") == 0);
    REQUIRE(vmaf_model_collection_feature_overload(b.model, &b.collection, "vif", d) == 0);
    CHECK(b.model->impl.features()[3].output_name == "integer_vif_scale1_egl_1");
    for (const auto &m : b.collection->impl.models())
        CHECK(m.features()[3].output_name == "integer_vif_scale1_egl_1");
}

// ---- flags and closed forms -------------------------------------------------

TEST_CASE("score clip, DISABLE_CLIP and the libsvm kernel in closed form", "[model]")
{
    TempDir dir;
    const std::string path = dir.write("m.json", synthetic_model(R"("score_clip": [0.0, 100.0],)"));
    for (double x : {0.0, 0.5, 0.75, 3.0}) {
        INFO("x = " << x);
        Handles clipped, raw;
        clipped.model = load_path(path);
        raw.model = load_path(path, VMAF_MODEL_FLAG_DISABLE_CLIP);
        CHECK(clipped.model->impl.clip_enabled());
        CHECK_FALSE(raw.model->impl.clip_enabled());
        CHECK(predict_at(clipped.model->impl, x) == 100.0);
        CHECK(predict_at(raw.model->impl, x) == Approx(synthetic_raw(x)).epsilon(1e-15));
        CHECK(predict_at(raw.model->impl, x) > 100.0);
        // The per-call skip flag (used for bootstrap statistics) does the same.
        CHECK(predict_at(clipped.model->impl, x, VMAF_MODEL_FLAG_DISABLE_CLIP) == predict_at(raw.model->impl, x));
    }
}

TEST_CASE("linear_rescale normalization in closed form", "[model]")
{
    // Feature: 2x + 0.1; score: (y - 5) / 0.5.
    TempDir dir;
    const std::string path =
        dir.write("m.json", synthetic_model(R"("slopes": [0.5, 2.0], "intercepts": [5.0, 0.1],)", "linear_rescale"));
    Handles h;
    h.model = load_path(path);
    for (double x : {0.0, 0.2, 1.0}) {
        const double f = 2.0 * x + 0.1;
        const double expected = (synthetic_raw(f) - 5.0) / 0.5;
        CHECK(predict_at(h.model->impl, x) == Approx(expected).epsilon(1e-15));
    }
}

TEST_CASE("score transform: off by default, ENABLE/DISABLE_TRANSFORM, closed forms", "[model]")
{
    TempDir dir;
    // Polynomial y' = 1 + 0.5 y - 0.001 y^2, then out_gte_in (never below y).
    const std::string poly = dir.write("poly.json", synthetic_model(
        R"("score_transform": {"p0": 1.0, "p1": 0.5, "p2": -0.001, "out_gte_in": "true"},)", "none",
        "rho 0\nSV\n10 1:0.5 \n"));
    const double x = 0.7;
    const double y = 10.0 * std::exp(-0.5 * 0.2 * 0.2);  // raw score, about 9.8

    Handles off, on, both;
    off.model = load_path(poly);
    on.model = load_path(poly, VMAF_MODEL_FLAG_ENABLE_TRANSFORM);
    both.model = load_path(poly, VMAF_MODEL_FLAG_ENABLE_TRANSFORM | VMAF_MODEL_FLAG_DISABLE_TRANSFORM);
    CHECK_FALSE(off.model->impl.transform_enabled());
    CHECK(on.model->impl.transform_enabled());
    CHECK_FALSE(both.model->impl.transform_enabled());
    CHECK(predict_at(off.model->impl, x) == Approx(y).epsilon(1e-15));
    CHECK(predict_at(both.model->impl, x) == Approx(y).epsilon(1e-15));
    // 1 + 0.5 y - 0.001 y^2 < y here, so out_gte_in returns y itself.
    CHECK(1.0 + 0.5 * y - 0.001 * y * y < y);
    CHECK(predict_at(on.model->impl, x) == predict_at(off.model->impl, x));

    // Enabled in the file; rectified the other way (out_lte_in), and with knots.
    const std::string knots = dir.write("knots.json", synthetic_model(
        R"("score_transform": {"enabled": true, "p1": 2.0, "knots": [[0, 0], [10, 5], [20, 5], [30, 20]], "out_lte_in": "true"},)",
        "none", "rho 0\nSV\n10 1:0.5 \n"));
    Handles k;
    k.model = load_path(knots);
    CHECK(k.model->impl.transform_enabled());
    // 2y is about 19.6, on the flat segment [10, 20] -> 5; 5 <= y so kept.
    CHECK(predict_at(k.model->impl, x) == 5.0);
    // The transform as a function: segments, extension past both ends, rectification.
    vmaf::ScoreTransform t;
    t.knots = {{0, 0}, {10, 5}, {20, 5}, {30, 20}};
    CHECK(t.apply(4.0) == Approx(2.0).epsilon(1e-15));
    CHECK(t.apply(15.0) == 5.0);
    CHECK(t.apply(25.0) == Approx(12.5).epsilon(1e-15));
    CHECK(t.apply(40.0) == Approx(35.0).epsilon(1e-15));   // last segment extended
    t.knots = {{1, 1}, {3, 5}};
    CHECK(t.apply(0.0) == Approx(-1.0).epsilon(1e-15));     // first segment extended
    t.out_gte_in = true;
    CHECK(t.apply(0.0) == 0.0);

    Handles disabled;
    disabled.model = load_path(knots, VMAF_MODEL_FLAG_DISABLE_TRANSFORM);
    CHECK(predict_at(disabled.model->impl, x) == Approx(y).epsilon(1e-15));
}

TEST_CASE("libsvm parsing and the sparse RBF kernel", "[model]")
{
    // SV 1 lacks index 2, SV 2 lacks index 1: libsvm counts the missing
    // coordinates as zeros.
    vmaf::SvmRegressor svm;
    std::string err;
    REQUIRE(vmaf::SvmRegressor::parse("svm_type nu_svr\nkernel_type rbf\ngamma 0.25\nnr_class 2\n"
                                      "total_sv 2\nrho 0.125\nSV\n2 1:1 \n-1.5 2:0.5\n",
                                      &svm, &err) == 0);
    CHECK(svm.support_vector_count() == 2);
    const double x[] = {0.5, 0.25};
    const double expected = 2.0 * std::exp(-0.25 * (0.25 + 0.0625)) - 1.5 * std::exp(-0.25 * (0.25 + 0.0625)) - 0.125;
    CHECK(svm.predict(x) == Approx(expected).epsilon(1e-15));

    const char *bad[] = {
        "svm_type c_svc\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 0\nrho 0\nSV\n",
        "svm_type nu_svr\nkernel_type precomputed\nnr_class 2\ntotal_sv 0\nrho 0\nSV\n",
        "svm_type nu_svr\nkernel_type rbf\ngamma x\nnr_class 2\ntotal_sv 0\nrho 0\nSV\n",
        "svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 2\nrho 0\nSV\n1 1:0.5\n",
        "svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:0.5x\n",
        "svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 2:0.5 1:0.5\n",
        "svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:0.5\n1 1:0.5\n",
        "svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho nan\nSV\n1 1:0.5\n",
        "svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\n",
        "svm_type nu_svr\nkernel_type rbf\nwhat 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:0.5\n",
    };
    for (const char *text : bad) {
        INFO(text);
        err.clear();
        CHECK(vmaf::SvmRegressor::parse(text, &svm, &err) == -EINVAL);
        CHECK(!err.empty());
    }

    // A total_sv far beyond what the text holds fails on the missing vectors,
    // without reserving room for them (found by fuzzing: 16 GB were reserved).
    err.clear();
    CHECK(vmaf::SvmRegressor::parse("svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 2147483647\n"
                                    "rho 0\nSV\n1 1:0.5\n",
                                    &svm, &err) == -EINVAL);
    CHECK(err.find("only 1 are given") != std::string::npos);
}

TEST_CASE("pooling as libvmaf pools", "[model]")
{
    const std::vector<double> s = {0.0, 1.0, 3.0};
    CHECK(vmaf::pool(s, VMAF_POOL_METHOD_MIN) == 0.0);
    CHECK(vmaf::pool(s, VMAF_POOL_METHOD_MAX) == 3.0);
    CHECK(vmaf::pool(s, VMAF_POOL_METHOD_MEAN) == Approx(4.0 / 3.0).epsilon(1e-15));
    // n / sum(1 / (s + 1)) - 1 = 3 / (1 + 1/2 + 1/4) - 1
    CHECK(vmaf::pool(s, VMAF_POOL_METHOD_HARMONIC_MEAN) == Approx(3.0 / 1.75 - 1.0).epsilon(1e-15));
    CHECK(std::isnan(vmaf::pool(std::vector<double>{}, VMAF_POOL_METHOD_MEAN)));
    CHECK(std::isnan(vmaf::pool(s, VMAF_POOL_METHOD_UNKNOWN)));
    double out;
    CHECK(vmaf::pool(std::span<const double>(), VMAF_POOL_METHOD_MEAN, &out) == -EINVAL);
    CHECK(vmaf::pool(std::span<const double>(s), VMAF_POOL_METHOD_NB, &out) == -EINVAL);
}

// ---- errors -----------------------------------------------------------------

TEST_CASE("broken model files fail cleanly with a message", "[model]")
{
    TempDir dir;
    const std::string good = synthetic_model(R"("score_clip": [0.0, 100.0],)");
    auto replace = [&](const std::string &from, const std::string &to) {
        std::string s = good;
        const size_t at = s.find(from);
        REQUIRE(at != std::string::npos);
        return s.replace(at, from.size(), to);
    };
    // (file text, words the message must contain)
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "not valid JSON"},
        {"this is not a model\n", "not valid JSON"},
        {good.substr(0, good.size() / 2), "not valid JSON"},
        {"[1, 2]", "expected a JSON object"},
        {R"({"model_dict": 42})", "model_dict"},
        {R"({"something": {}})", "model_dict"},
        {replace(R"("model_type": "LIBSVMNUSVR")", R"("model_type": "RANDOMFOREST")"), "RANDOMFOREST"},
        {replace(R"("model_type": "LIBSVMNUSVR")", R"("model_type": 3)"), "model_type"},
        {replace(R"("model_type": "LIBSVMNUSVR",)", ""), "model_type"},
        {replace(R"("norm_type": "none")", R"("norm_type": "clip_0to1")"), "clip_0to1"},
        {replace(R"(["VMAF_integer_feature_vif_scale0_score"])", "5"), "feature_names"},
        {replace(R"(["VMAF_integer_feature_vif_scale0_score"])", "[]"), "feature_names"},
        {replace(R"(["VMAF_integer_feature_vif_scale0_score"])", "[7]"), "feature_names[0]"},
        {replace(R"("score_clip": [0.0, 100.0])", R"("score_clip": [0.0])"), "score_clip"},
        {replace(R"("score_clip": [0.0, 100.0])", R"("score_clip": ["a", 1])"), "score_clip[0]"},
        {replace(R"("score_clip": [0.0, 100.0])", R"("score_transform": {"p0": "x"})"), "p0"},
        {replace(R"("score_clip": [0.0, 100.0])", R"("score_transform": {"knots": [[1, 1], [0, 2]]})"), "knots"},
        {replace(R"("score_clip": [0.0, 100.0])", R"("feature_opts_dicts": [{"vif_enhn_gain_limit": [1]}])"),
         "vif_enhn_gain_limit"},
        {replace(R"("score_clip": [0.0, 100.0])", R"("feature_opts_dicts": [{"no_such_option": 1}])"),
         "no_such_option"},
        {replace(R"("score_clip": [0.0, 100.0])", R"("feature_opts_dicts": [{}, {}])"), "feature_opts_dicts"},
        {replace(R"("norm_type": "none")", R"("norm_type": "linear_rescale")"), "slopes"},
        {replace(R"("score_clip": [0.0, 100.0])", R"("slopes": [1.0], "intercepts": [0.0, 0.0])"), "slopes"},
        {replace("total_sv 1", "total_sv 3"), "total_sv"},
        {replace("10 1:0.5", "10 1:0.5e"), "support vector 1"},
        {replace("10 1:0.5", "ten 1:0.5"), "support vector 1"},
        {replace("kernel_type rbf", "kernel_type magic"), "magic"},
        {replace(R"("model": "svm_type)", R"("model": 12, "x": "svm_type)"), "model_dict.model"},
        // Valid JSON syntax, but no double holds it.
        {replace(R"("score_clip": [0.0, 100.0])", R"("score_clip": [0.0, 1e999])"), "1e999"},
    };
    int i = 0;
    for (const auto &[text, words] : cases) {
        const std::string path = dir.write("bad" + std::to_string(i++) + ".json", text);
        INFO(path << ":\n" << text);
        VmafModelConfig cfg{nullptr, 0};
        VmafModel *m = nullptr;
        StderrCapture cap;
        CHECK(vmaf_model_load_from_path(&m, &cfg, path.c_str()) == -EINVAL);
        const std::string msg = cap.text();
        INFO("message: " << msg);
        CHECK(m == nullptr);
        CHECK(msg.find("ERROR") != std::string::npos);
        CHECK(msg.find(words) != std::string::npos);
        CHECK(msg.find(path) != std::string::npos);  // the file is named
    }

    // Wrong kind: a collection as a model and a model as a collection.
    VmafModelConfig cfg{nullptr, 0};
    VmafModel *m = nullptr;
    VmafModelCollection *c = nullptr;
    StderrCapture cap;
    CHECK(vmaf_model_load_from_path(&m, &cfg, model_file("vmaf_b_v0.6.3").c_str()) == -EINVAL);
    CHECK(vmaf_model_load(&m, &cfg, "vmaf_b_v0.6.3") == -EINVAL);
    CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, model_file("vmaf_v0.6.1").c_str()) == -EINVAL);
    CHECK(m == nullptr);
    CHECK(c == nullptr);
    // A collection whose bootstrap model is broken.
    const std::string broken = dir.write("coll.json", "{\"0\": " + good + ", \"1\": {\"model_dict\": 1}}");
    CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, broken.c_str()) == -EINVAL);
    const std::string only_main = dir.write("coll1.json", "{\"0\": " + good + "}");
    CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, only_main.c_str()) == -EINVAL);
    const std::string plain = dir.write("coll2.json", "{\"0\": " + good + ", \"1\": " + good + "}");
    CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, plain.c_str()) == -EINVAL);
    CHECK(m == nullptr);
    CHECK(c == nullptr);
    const std::string msg = cap.text();
    CHECK(msg.find("model \"1\"") != std::string::npos);
    CHECK(msg.find("vmaf_model_collection_load") != std::string::npos);
}

TEST_CASE("missing files and NULL arguments", "[model]")
{
    VmafModelConfig cfg{nullptr, 0};
    VmafModel *m = nullptr;
    VmafModelCollection *c = nullptr;
    {
        // libvmaf returns -EINVAL whenever the file cannot be opened; the message says why.
        StderrCapture files;
        CHECK(vmaf_model_load_from_path(&m, &cfg, "/nonexistent/dir/model.json") == -EINVAL);
        CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, "/nonexistent/dir/model.json") == -EINVAL);
        CHECK(vmaf_model_load_from_path(&m, &cfg, fs::temp_directory_path().c_str()) == -EINVAL);
        const std::string said = files.text();
        CHECK(said.find("/nonexistent/dir/model.json") != std::string::npos);
        CHECK(said.find(std::strerror(ENOENT)) != std::string::npos);
        CHECK(said.find("is a directory") != std::string::npos);
    }
    StderrCapture cap;

    const std::string path = model_file("vmaf_v0.6.1");
    CHECK(vmaf_model_load(nullptr, &cfg, "vmaf_v0.6.1") == -EINVAL);
    CHECK(vmaf_model_load(&m, nullptr, "vmaf_v0.6.1") == -EINVAL);
    CHECK(vmaf_model_load(&m, &cfg, nullptr) == -EINVAL);
    CHECK(vmaf_model_load_from_path(nullptr, &cfg, path.c_str()) == -EINVAL);
    CHECK(vmaf_model_load_from_path(&m, nullptr, path.c_str()) == -EINVAL);
    CHECK(vmaf_model_load_from_path(&m, &cfg, nullptr) == -EINVAL);
    CHECK(vmaf_model_collection_load(nullptr, &c, &cfg, "vmaf_b_v0.6.3") == -EINVAL);
    CHECK(vmaf_model_collection_load(&m, nullptr, &cfg, "vmaf_b_v0.6.3") == -EINVAL);
    CHECK(vmaf_model_collection_load(&m, &c, nullptr, "vmaf_b_v0.6.3") == -EINVAL);
    CHECK(vmaf_model_collection_load(&m, &c, &cfg, nullptr) == -EINVAL);
    CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, nullptr) == -EINVAL);
    CHECK(m == nullptr);
    CHECK(c == nullptr);

    VmafFeatureDictionary *d = nullptr;
    REQUIRE(vmaf_feature_dictionary_set(&d, "vif_enhn_gain_limit", "1") == 0);
    CHECK(vmaf_model_feature_overload(nullptr, "vif", d) == -EINVAL);
    m = load_path(path);
    CHECK(vmaf_model_feature_overload(m, nullptr, d) == -EINVAL);
    CHECK(vmaf_model_feature_overload(m, "vif", nullptr) == -EINVAL);
    CHECK(vmaf_model_collection_feature_overload(m, nullptr, "vif", d) == -EINVAL);
    CHECK(vmaf_model_collection_feature_overload(m, &c, "vif", d) == -EINVAL);  // *c is NULL
    CHECK(vmaf_model_collection_feature_overload(nullptr, &c, "vif", d) == -EINVAL);
    vmaf_feature_dictionary_free(&d);  // not consumed by calls that fail their argument checks
    vmaf_model_destroy(m);
    vmaf_model_destroy(nullptr);
    vmaf_model_collection_destroy(nullptr);
    const std::string msg = cap.text();
    CHECK(msg.find("is NULL") != std::string::npos);

    // Prediction: a missing feature is reported, not invented.
    Handles h;
    h.model = load_path(path);
    double s = -1;
    CHECK(h.model->impl.predict([](const std::string &, double *) { return -ENOENT; }, &s) == -ENOENT);
    CHECK(h.model->impl.predict(vmaf::FeatureLookup(), &s) == -EINVAL);
    CHECK(h.model->impl.predict([](const std::string &, double *v) { *v = 0; return 0; }, nullptr) == -EINVAL);
    CHECK(s == -1);
}
