// Finding and reading model files.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "util/os.h"

#ifndef VMAF_MODEL_DIR
#error "VMAF_MODEL_DIR must be defined by the build (meson option model_dir)"
#endif

namespace vmaf {

namespace {

constexpr const char *kModelDirEnv = "VMAF_MODEL_DIR";

// Every way of failing to read the file is -EINVAL, as in libvmaf (which
// returns that whenever fopen fails); the message says why.
int read_text(const std::string &path, std::string *text, std::string *err)
{
    std::error_code ec;
    if (std::filesystem::is_directory(os::fs_path(path), ec)) {
        if (err) *err = "model file '" + path + "' is a directory";
        return -EINVAL;
    }
    errno = 0;
    std::ifstream in(os::fs_path(path), std::ios::binary);
    if (!in) {
        const int e = errno ? errno : EIO;
        if (err) *err = "cannot open model file '" + path + "': " + std::strerror(e);
        return -EINVAL;
    }
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) {
        if (err) *err = "cannot read model file '" + path + "'";
        return -EINVAL;
    }
    *text = std::move(s).str();
    return 0;
}

int read_json(const std::string &path, nlohmann::json *doc, std::string *err)
{
    std::string text;
    if (int e = read_text(path, &text, err)) return e;
    try {
        *doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &ex) {
        if (err) *err = "model file '" + path + "' is not valid JSON: " + ex.what();
        return -EINVAL;
    }
    return 0;
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

int model_version_path(std::string_view version, std::string *path, std::string *err)
{
    const std::string v(version);
    if (v.empty() || v == "." || v == ".." || v.find('/') != std::string::npos) {
        if (err) *err = "'" + v + "' is not a model version name (give a file with a path instead)";
        return -EINVAL;
    }
    const char *env = std::getenv(kModelDirEnv);
    const bool from_env = env && *env;
    const std::string dir = model_directory();
    const std::string file = v + ".json";
    *path = dir + "/" + file;
    if (readable_file(*path)) return 0;

    // Upstream's layout keeps a family of models in a folder of its own
    // (vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json): look one level down.
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
    const std::string where =
        " (model directory " + dir +
        (from_env ? std::string(", from $") + kModelDirEnv
                  : std::string(", set at build time; set $") + kModelDirEnv + " to use another") +
        ")";
    if (found.size() > 1) {
        if (err) {
            *err = "model '" + v + "' is ambiguous: ";
            for (size_t i = 0; i < found.size(); i++) *err += (i ? " and " : "") + found[i];
            *err += " both exist" + where;
        }
        return -EINVAL;
    }
    // libvmaf returns -EINVAL for a version it does not know.
    if (err)
        *err = "no model '" + v + "': neither " + *path + " nor " + file + " in a folder of " + dir +
               " exists or can be read" + where;
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

}  // namespace vmaf
