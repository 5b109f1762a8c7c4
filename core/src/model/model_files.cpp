// Finding and reading model files.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/model.h"

#ifndef VMAF_MODEL_DIR
#error "VMAF_MODEL_DIR must be defined by the build (meson option model_dir)"
#endif

namespace vmaf {

namespace {

constexpr const char *kModelDirEnv = "VMAF_MODEL_DIR";

int read_text(const std::string &path, std::string *text, std::string *err)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        if (err) *err = "model file '" + path + "' is a directory";
        return -EISDIR;
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int e = errno ? errno : EIO;
        if (err) *err = "cannot open model file '" + path + "': " + std::strerror(e);
        return -e;
    }
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) {
        if (err) *err = "cannot read model file '" + path + "'";
        return -EIO;
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

void prefix(std::string *err, const std::string &path)
{
    if (err) *err = "model file '" + path + "': " + *err;
}

}  // namespace

std::string model_directory()
{
    const char *env = std::getenv(kModelDirEnv);
    return env && *env ? std::string(env) : std::string(VMAF_MODEL_DIR);
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
    *path = dir + "/" + v + ".json";
    std::ifstream probe(*path);
    if (!probe) {
        if (err)
            *err = "no model '" + v + "': " + *path + " does not exist or cannot be read (model directory " + dir +
                   (from_env ? std::string(", from $") + kModelDirEnv
                             : std::string(", set at build time; set $") + kModelDirEnv + " to use another") +
                   ")";
        return -ENOENT;
    }
    return 0;
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
