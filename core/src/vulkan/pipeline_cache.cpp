// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vulkan/pipeline_cache.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "spirv.h"
#include "util/env.h"
#include "util/log.h"
#include "os/os.h"
#include "vulkan/state.h"

namespace vmaf::vk {

namespace {

constexpr char kMagic[8] = {'V', 'M', 'A', 'F', 'V', 'K', 'P', 'C'};
constexpr uint32_t kFormatVersion = 1;

// The file: this header, then data_size bytes of vkGetPipelineCacheData.
struct FileHeader {
    char magic[8];
    uint32_t version;
    uint32_t header_size;
    uint32_t vendor_id, device_id, driver_version, reserved;
    uint8_t cache_uuid[VK_UUID_SIZE];
    uint64_t shader_hash;
    uint64_t data_size;
    uint64_t data_checksum;  // FNV-1a 64 of the data
};
static_assert(sizeof(FileHeader) == 72);

uint64_t fnv1a64(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

// One warning per process for each kind of trouble.
std::atomic<bool> g_warned_corrupt{false}, g_warned_unwritable{false}, g_warned_untrusted{false};

// No pipeline cache file is near this large: a larger one is not ours.
constexpr size_t kMaxFileBytes = size_t(1) << 30;
// A temporary file of a save this old was left by a process that died before
// renaming it (a save takes milliseconds).
constexpr unsigned kStaleTemporarySeconds = 600;

void warn_once(std::atomic<bool> &flag, const char *fmt, const std::string &path, const char *why)
{
    if (flag.exchange(true)) {
        log(VMAF_LOG_LEVEL_DEBUG, fmt, path.c_str(), why);
        return;
    }
    log(VMAF_LOG_LEVEL_WARNING, fmt, path.c_str(), why);
}

FileHeader key_of(const State &st)
{
    FileHeader h{};
    std::memcpy(h.magic, kMagic, sizeof(kMagic));
    h.version = kFormatVersion;
    h.header_size = sizeof(FileHeader);
    const VkPhysicalDeviceProperties &p = st.properties();
    h.vendor_id = p.vendorID;
    h.device_id = p.deviceID;
    h.driver_version = p.driverVersion;
    std::memcpy(h.cache_uuid, p.pipelineCacheUUID, VK_UUID_SIZE);
    h.shader_hash = spirv::kBuildHash;
    return h;
}

// Why `file` is not a cache this device can use; null when it is.
const char *check_file(std::string_view file, const FileHeader &key, const VkPhysicalDeviceProperties &p)
{
    FileHeader h;
    if (file.size() < sizeof(h)) return "shorter than its header";
    std::memcpy(&h, file.data(), sizeof(h));
    if (std::memcmp(h.magic, kMagic, sizeof(kMagic)) || h.header_size != sizeof(FileHeader))
        return "not a libvmaf-vk pipeline cache";
    if (h.version != kFormatVersion) return "another format version";
    if (h.vendor_id != key.vendor_id || h.device_id != key.device_id || h.driver_version != key.driver_version ||
        std::memcmp(h.cache_uuid, key.cache_uuid, VK_UUID_SIZE))
        return "made for another device or driver";
    if (h.data_size != file.size() - sizeof(h)) return "truncated or overlong";
    const auto *data = reinterpret_cast<const uint8_t *>(file.data()) + sizeof(h);
    if (fnv1a64(data, size_t(h.data_size)) != h.data_checksum) return "checksum mismatch";
    // The Vulkan pipeline cache header (version one): length, version, vendor,
    // device, pipelineCacheUUID.
    if (h.data_size < 16 + VK_UUID_SIZE) return "no Vulkan pipeline cache header";
    uint32_t words[4];
    std::memcpy(words, data, sizeof(words));
    if (words[0] < 16 + VK_UUID_SIZE || words[0] > h.data_size) return "bad Vulkan header length";
    if (words[1] != VK_PIPELINE_CACHE_HEADER_VERSION_ONE) return "unknown Vulkan header version";
    if (words[2] != p.vendorID || words[3] != p.deviceID || std::memcmp(data + 16, p.pipelineCacheUUID, VK_UUID_SIZE))
        return "Vulkan header of another device";
    return nullptr;
}

}  // namespace

std::string PipelineCache::file_for(const State &st)
{
    const std::string dir = os::user_cache_dir("libvmaf-vk");
    if (dir.empty()) return "";
    const VkPhysicalDeviceProperties &p = st.properties();
    char name[128];
    int n = std::snprintf(name, sizeof(name), "/pipelines-%04x-%04x-%08x-", p.vendorID, p.deviceID,
                          p.driverVersion);
    for (unsigned i = 0; i < VK_UUID_SIZE; i++)
        n += std::snprintf(name + n, sizeof(name) - size_t(n), "%02x", p.pipelineCacheUUID[i]);
    return dir + name + ".bin";
}

std::unique_ptr<PipelineCache> PipelineCache::open(State &st)
{
    std::unique_ptr<PipelineCache> c(new PipelineCache(st));
    if (env_switch("VMAF_VULKAN_PIPELINE_CACHE", true)) {
        c->path_ = file_for(st);
        if (c->path_.empty())
            log(VMAF_LOG_LEVEL_DEBUG, "Vulkan: pipeline cache: no user cache directory (neither XDG_CACHE_HOME "
                                      "nor HOME; LOCALAPPDATA on Windows); no file\n");
    }
    if (!c->path_.empty()) {
        // A directory someone else may write into, or a link to one, would let
        // them choose the pipelines this process runs (or where it writes): no
        // file then. One that is not there yet is made on the first save.
        const std::string dir = c->path_.substr(0, c->path_.rfind('/'));
        std::string why;
        // One that cannot be looked at is said when saving (a directory that
        // cannot be made, as for one that is not there yet).
        const int err = os::private_directory(dir, false, &why);
        if (err == -EPERM) {
            if (!g_warned_untrusted.exchange(true))
                log_env(VMAF_LOG_LEVEL_WARNING, "Vulkan: pipeline cache directory %s %s; no pipeline cache file\n",
                        dir.c_str(), why.c_str());
            c->path_.clear();
        } else if (!err) {
            os::remove_stale_temporaries(dir, "pipelines-", ".bin", kStaleTemporarySeconds);
        }
    }
    c->load();
    return c;
}

void PipelineCache::load()
{
    std::string file;
    const FileHeader key = key_of(st_);
    const uint8_t *initial = nullptr;
    size_t initial_size = 0;
    if (!path_.empty()) {
        std::string why;
        if (int err = -os::read_regular_file(path_, kMaxFileBytes, &file, &why)) {
            if (err == ENOENT || err == ENOTDIR) {  // an unusable directory is said once, on saving
                log(VMAF_LOG_LEVEL_DEBUG, "Vulkan: pipeline cache: no file %s yet\n", path_.c_str());
            } else {
                warn_once(g_warned_corrupt, "Vulkan: pipeline cache %s cannot be read (%s); ignored\n", path_,
                          why.c_str());
            }
        } else if (const char *why = check_file(file, key, st_.properties())) {
            warn_once(g_warned_corrupt, "Vulkan: pipeline cache %s ignored: %s\n", path_, why);
        } else {
            FileHeader h;
            std::memcpy(&h, file.data(), sizeof(h));
            if (h.shader_hash != key.shader_hash) {
                // Another build of the library: its pipelines are of other shaders.
                log(VMAF_LOG_LEVEL_DEBUG, "Vulkan: pipeline cache %s is of another shader build; replaced\n",
                    path_.c_str());
            } else {
                initial = reinterpret_cast<const uint8_t *>(file.data()) + sizeof(h);
                initial_size = size_t(h.data_size);
            }
        }
    }
    VkPipelineCacheCreateInfo ci = make<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    ci.initialDataSize = initial_size;
    ci.pInitialData = initial;
    VkResult r = st_.fn().vkCreatePipelineCache(st_.device(), &ci, nullptr, &cache_);
    if (r != VK_SUCCESS && initial) {
        warn_once(g_warned_corrupt, "Vulkan: pipeline cache %s ignored: the driver refused it (%s)\n", path_,
                  result_name(r));
        initial_size = 0;
        ci.initialDataSize = 0;
        ci.pInitialData = nullptr;
        r = st_.fn().vkCreatePipelineCache(st_.device(), &ci, nullptr, &cache_);
    }
    if (r != VK_SUCCESS) {
        cache_ = VK_NULL_HANDLE;
        log(VMAF_LOG_LEVEL_WARNING, "Vulkan: vkCreatePipelineCache: %s; pipelines are compiled without one\n",
            result_name(r));
        return;
    }
    loaded_ = initial_size;
    saved_size_ = initial_size;
    saved_checksum_ = initial ? fnv1a64(initial, initial_size) : 0;
    if (initial_size)
        log(VMAF_LOG_LEVEL_DEBUG, "Vulkan: pipeline cache: loaded %zu bytes from %s\n", initial_size,
            path_.c_str());
}

size_t PipelineCache::save()
{
    if (!cache_ || path_.empty()) return 0;
    std::lock_guard lock(save_mutex_);
    // Pipelines made from now on set it again, and the next save looks.
    if (!used_.exchange(false, std::memory_order_acq_rel)) return 0;
    const auto &fn = st_.fn();
    size_t size = 0;
    if (fn.vkGetPipelineCacheData(st_.device(), cache_, &size, nullptr) != VK_SUCCESS || !size) return 0;
    std::vector<uint8_t> out(sizeof(FileHeader) + size);
    if (fn.vkGetPipelineCacheData(st_.device(), cache_, &size, out.data() + sizeof(FileHeader)) != VK_SUCCESS)
        return 0;
    out.resize(sizeof(FileHeader) + size);
    FileHeader h = key_of(st_);
    h.data_size = size;
    h.data_checksum = fnv1a64(out.data() + sizeof(FileHeader), size);
    if (size == saved_size_ && h.data_checksum == saved_checksum_) return 0;  // what the file holds
    std::memcpy(out.data(), &h, sizeof(h));

    const std::string dir = path_.substr(0, path_.rfind('/'));
    std::string why;
    if (int err = os::private_directory(dir, true, &why)) {
        if (err != -EPERM) {
            warn_once(g_warned_unwritable, "Vulkan: pipeline cache directory of %s cannot be made (%s); not saved\n",
                      path_, why.c_str());
        } else if (!g_warned_untrusted.exchange(true)) {
            log_env(VMAF_LOG_LEVEL_WARNING, "Vulkan: pipeline cache directory %s %s; no pipeline cache file\n",
                    dir.c_str(), why.c_str());
        }
        return 0;
    }
    // A file of our own in the same directory, renamed over the old one: a
    // reader sees the old file or the new one, never a mix.
    if (int err = os::replace_file(path_, std::string_view(reinterpret_cast<const char *>(out.data()), out.size()))) {
        warn_once(g_warned_unwritable, "Vulkan: pipeline cache %s cannot be written (%s); not saved\n", path_,
                  std::strerror(-err));
        return 0;
    }
    saved_size_ = size;
    saved_checksum_ = h.data_checksum;
    log(VMAF_LOG_LEVEL_DEBUG, "Vulkan: pipeline cache: saved %zu bytes to %s\n", size, path_.c_str());
    return out.size();
}

PipelineCache::~PipelineCache()
{
    if (!cache_) return;
    save();
    st_.fn().vkDestroyPipelineCache(st_.device(), cache_, nullptr);
}

}  // namespace vmaf::vk
