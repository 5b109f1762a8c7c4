// SPDX-License-Identifier: BSD-2-Clause-Patent
// The Vulkan side of the public API: configuration -> State, device listing.
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string_view>

#include "util/log.h"
#include "api/vulkan_device.h"
#include "gpu/engine.h"
#include "vulkan/state.h"

namespace vmaf::vk {

int state_create(const VmafVulkanConfiguration &c, State **out)
{
    Config cfg;
    cfg.device_index = c.device_index;
    if (c.device_name) cfg.device_name = c.device_name;
    cfg.validation = c.enable_validation != 0;
    cfg.frames_in_flight = c.frames_in_flight ? c.frames_in_flight : kDefaultFramesInFlight;
    std::unique_ptr<State> s;
    if (int err = State::create(cfg, &s)) return err;
    *out = s.release();
    return 0;
}

int state_adopt(const VmafVulkanExternalHandles &h, State **out)
{
    ExternalDevice ext;
    ext.instance = h.instance;
    ext.physical = h.physical_device;
    ext.device = h.device;
    ext.get_instance_proc_addr = h.get_instance_proc_addr;
    ext.queue_family = h.queue_family_index;
    ext.queue_index = h.queue_index;
    ext.lock = {h.lock_queue, h.unlock_queue, h.lock_opaque};
    ext.enabled_features = h.enabled_features;
    for (unsigned i = 0; i < h.n_enabled_extensions; i++)
        if (h.enabled_extensions[i]) ext.extensions.emplace_back(h.enabled_extensions[i]);
    ext.api_version = h.api_version;
    ext.frames_in_flight = h.max_outstanding_frames ? h.max_outstanding_frames : kDefaultFramesInFlight;
    std::unique_ptr<State> s;
    if (int err = State::adopt(ext, &s)) return err;
    *out = s.release();
    return 0;
}

void state_destroy(State *state)
{
    if (state && state->hung()) {
        // Destroying a device the GPU still works for is undefined: keep it.
        log(VMAF_LOG_LEVEL_ERROR, "Vulkan: the GPU is hung: the device of this state is not destroyed\n");
        return;
    }
    delete state;
}
unsigned state_users(const State *state) { return state->attached(); }

namespace {
void describe(const DeviceInfo &in, VmafVulkanDeviceInfo *out)
{
    VmafVulkanDeviceInfo &d = *out;
    std::memset(&d, 0, sizeof(d));
    std::strncpy(d.name, in.name.c_str(), sizeof(d.name) - 1);
    d.vendor_id = in.vendor_id;
    d.device_id = in.device_id;
    d.type = VmafVulkanDeviceType(in.type);
    d.api_version = in.api_version;
    d.usable = in.usable();
    std::memcpy(d.uuid, in.uuid, sizeof(d.uuid));
}
}  // namespace

namespace {

// The struct of `type` in the pNext chain after `head`, or null.
template <typename T>
T *chained(const void *head, VkStructureType type)
{
    for (auto *s = static_cast<const VkBaseInStructure *>(head)->pNext; s; s = s->pNext)
        if (s->sType == type) return const_cast<T *>(reinterpret_cast<const T *>(s));
    return nullptr;
}

// The VkBool32 members first..last of a feature struct (Vulkan's feature structs
// hold nothing else after sType and pNext), as a span of flags.
#define FEATURE_FLAGS(T, first, last) \
    offsetof(T, first), (offsetof(T, last) - offsetof(T, first)) / sizeof(VkBool32) + 1

// dst's flags |= src's (or = when `assign`), `n` of them from byte `at` of each.
template <typename T>
void merge_flags(T *dst, const T &src, size_t at, size_t n, bool assign)
{
    auto *d = reinterpret_cast<VkBool32 *>(reinterpret_cast<char *>(dst) + at);
    auto *s = reinterpret_cast<const VkBool32 *>(reinterpret_cast<const char *>(&src) + at);
    for (size_t i = 0; i < n; i++) d[i] = assign ? s[i] : (d[i] || s[i] ? VK_TRUE : VK_FALSE);
}

// The three structs of `chain` that FeatureChain holds, copied or merged into
// (from) a FeatureChain; false when a struct is missing (logged, naming `what`).
struct Chain {
    VkPhysicalDeviceFeatures2 *core;
    VkPhysicalDeviceVulkan11Features *v11;
    VkPhysicalDeviceVulkan12Features *v12;
};

bool find_chain(const VkPhysicalDeviceFeatures2 *f, const char *what, Chain *out)
{
    if (f->sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_enable_device_features: `%s` has sType %d, not "
            "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2\n", what, int(f->sType));
        return false;
    }
    out->core = const_cast<VkPhysicalDeviceFeatures2 *>(f);
    out->v11 = chained<VkPhysicalDeviceVulkan11Features>(f, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    out->v12 = chained<VkPhysicalDeviceVulkan12Features>(f, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    const char *missing = !out->v11 ? "VkPhysicalDeviceVulkan11Features"
                        : !out->v12 ? "VkPhysicalDeviceVulkan12Features" : nullptr;
    if (missing) {
        log(VMAF_LOG_LEVEL_ERROR, "vmaf_vulkan_enable_device_features: no %s in the pNext chain of "
            "`%s`; it needs both VkPhysicalDeviceVulkan11Features and VkPhysicalDeviceVulkan12Features\n",
            missing, what);
        return false;
    }
    return true;
}

}  // namespace

int enable_device_features(VkPhysicalDeviceFeatures2 *features, const VkPhysicalDeviceFeatures2 *supported)
{
    Chain dst{}, have_in{};
    if (!find_chain(features, "features", &dst)) return -EINVAL;
    if (supported && !find_chain(supported, "supported", &have_in)) return -EINVAL;
    FeatureChain need;
    need.require();
    if (supported) {
        FeatureChain have;
        merge_flags(&have.core.features, have_in.core->features,
                    FEATURE_FLAGS(VkPhysicalDeviceFeatures, robustBufferAccess, inheritedQueries), true);
        merge_flags(&have.v11, *have_in.v11,
                    FEATURE_FLAGS(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess, shaderDrawParameters), true);
        merge_flags(&have.v12, *have_in.v12,
                    FEATURE_FLAGS(VkPhysicalDeviceVulkan12Features, samplerMirrorClampToEdge, subgroupBroadcastDynamicId), true);
        need.want_optional(have);
    }
    merge_flags(&dst.core->features, need.core.features,
                FEATURE_FLAGS(VkPhysicalDeviceFeatures, robustBufferAccess, inheritedQueries), false);
    merge_flags(dst.v11, need.v11,
                FEATURE_FLAGS(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess, shaderDrawParameters), false);
    merge_flags(dst.v12, need.v12,
                FEATURE_FLAGS(VkPhysicalDeviceVulkan12Features, samplerMirrorClampToEdge, subgroupBroadcastDynamicId), false);
    return 0;
}

#undef FEATURE_FLAGS

int list_devices(VmafVulkanDeviceInfo *devices, unsigned capacity, unsigned *count)
{
    std::vector<DeviceInfo> all;
    if (int err = State::list_devices(&all)) return err;
    *count = unsigned(all.size());
    for (unsigned i = 0; i < std::min(capacity, *count); i++) describe(all[i], &devices[i]);
    return 0;
}

int device_info(const State *state, VmafVulkanDeviceInfo *info)
{
    describe(state->info(), info);
    return 0;
}

int context_stats(State *state, const Engine *engine, VmafVulkanContextStats *out)
{
    if (state) {
        out->has_state = 1;
        out->allocated_bytes = uint64_t(state->allocator().allocated_bytes());
        out->validation_messages = state->validation_errors() + state->validation_warnings();
    }
    if (engine) {
        out->engine_started = 1;
        out->host_copies = engine->host_frames_enabled();
        const GpuTiming t = engine->gpu_timing();
        out->gpu_frames = t.frames;
        out->gpu_total_ms = t.total_ms;
        out->gpu_min_ms = t.min_ms;
        out->gpu_max_ms = t.max_ms;
        const HostTiming h = engine->host_timing();
        out->host_frames = h.frames;
        out->host_call_ms = h.call_ms;
        out->host_wait_ms = h.wait_ms;
        out->host_copy_ms = h.copy_ms;
        out->host_span_ms = h.span_ms();
    }
    return 0;
}

void profile_enable(State *state) { state->set_profiling(true); }

int profile_read(const Engine *engine, uint64_t *frames, double *total_ms, VmafVulkanProfileInterval *intervals,
                 unsigned capacity, unsigned *count)
{
    *count = 0;
    if (frames) *frames = 0;
    if (total_ms) *total_ms = 0;
    if (!engine) return 0;
    const GpuProfile &p = engine->profile();
    if (frames) *frames = p.frames;
    if (total_ms) *total_ms = p.total_ms;
    *count = unsigned(p.intervals.size());
    for (unsigned i = 0; i < capacity && i < *count; i++) {
        const GpuProfile::Interval &in = p.intervals[i];
        VmafVulkanProfileInterval &out = intervals[i];
        out = {};
        const size_t len = std::min(in.part.size(), sizeof out.name - 1);
        std::memcpy(out.name, in.part.data(), len);
        out.stage = in.stage;
        out.carried = in.carried;
        out.total_ms = in.total_ms;
    }
    return 0;
}

int feature_on_gpu(const Engine *engine, const char *extractor)
{
    if (!engine) return 0;
    // An instance serving several features is named after each, joined by '+'.
    const std::string_view want = extractor;
    for (const char *name : engine->feature_names()) {
        for (std::string_view rest = name; !rest.empty();) {
            const size_t plus = std::min(rest.find('+'), rest.size());
            if (rest.substr(0, plus) == want) return 1;
            rest.remove_prefix(std::min(plus + 1, rest.size()));
        }
    }
    return 0;
}

int available()
{
    std::vector<DeviceInfo> all;
    if (int err = State::list_devices(&all)) return err;
    const int usable = int(std::count_if(all.begin(), all.end(), [](const DeviceInfo &d) { return d.usable(); }));
    if (!usable) {
        log(VMAF_LOG_LEVEL_INFO, "Vulkan: no usable device (%zu listed)\n", all.size());
        return -ENODEV;
    }
    return usable;
}

}  // namespace vmaf::vk
