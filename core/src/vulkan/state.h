// SPDX-License-Identifier: BSD-2-Clause-Patent
// The Vulkan device state: an instance, a physical device, a device and the one
// compute queue the library submits to. `VmafVulkanState` wraps one.
//
// Ownership is explicit so that a caller's objects can be adopted: a state either
// created everything itself (`owned()`: destroyed with it) or borrows a caller's
// instance, device and queue (destroyed by the caller, after the state), with the
// caller's queue-lock callbacks serializing submissions against the caller's own.
// Everything after the handles exist (function table, properties, allocator) is
// set up by one path, finish(), whichever way they came.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/clock.h"
#include "vulkan/vk.h"

namespace vmaf::vk {

class Allocator;
class PipelineShelf;
class TableShelf;
class PipelineCache;

inline constexpr unsigned kDefaultFramesInFlight = 3;
inline constexpr unsigned kMaxFramesInFlight = 16;

struct Config {
    // Index in list_devices() order; -1 picks through VMAF_VULKAN_DEVICE (an index
    // or a name substring), else the best usable device (discrete GPU first).
    int device_index = -1;
    // A case-insensitive substring of the device name; wins over device_index.
    std::string device_name;
    // Load VK_LAYER_KHRONOS_validation and count its messages (fails when the
    // layer is missing). VMAF_VULKAN_VALIDATION=1 asks too, but only warns then.
    bool validation = false;
    unsigned frames_in_flight = kDefaultFramesInFlight;
};

struct DeviceInfo {
    std::string name;
    uint32_t vendor_id = 0, device_id = 0, api_version = 0;
    VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    uint8_t uuid[VK_UUID_SIZE] = {};  // VkPhysicalDeviceIDProperties.deviceUUID; zero when unknown
    // What the kernels need and the device lacks ("shaderInt64, timelineSemaphore");
    // empty when usable.
    std::string missing;
    bool usable() const { return missing.empty(); }
};

// The feature structs the library looks at, chained (core -> 1.1 -> 1.2): filled
// by a query, or set by require() for creating a device the library will use
// (its own, and the devices tests and vmaf_bench make for it to adopt).
struct FeatureChain {
    VkPhysicalDeviceFeatures2 core = make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    VkPhysicalDeviceVulkan11Features v11 = make<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    VkPhysicalDeviceVulkan12Features v12 = make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);

    FeatureChain()
    {
        core.pNext = &v11;
        v11.pNext = &v12;
    }
    FeatureChain(const FeatureChain &) = delete;
    FeatureChain &operator=(const FeatureChain &) = delete;

    // Turn on what the kernels need (libvmaf_vulkan.h lists it), nothing more.
    void require()
    {
        core.features.shaderInt64 = VK_TRUE;
        core.features.shaderInt16 = VK_TRUE;
        v11.storageBuffer16BitAccess = VK_TRUE;
        v12.storageBuffer8BitAccess = VK_TRUE;
        v12.timelineSemaphore = VK_TRUE;
    }
    // And what is used where the device has it: doubles in kernels
    // (State::float64()), queries reset by the host (State::host_query_reset()).
    void want_optional(const FeatureChain &have)
    {
        core.features.shaderFloat64 = have.core.features.shaderFloat64;
        v12.hostQueryReset = have.v12.hostQueryReset;
    }
};

// Serializes use of a queue shared with the caller: the shape of FFmpeg's
// AVVulkanDeviceContext lock_queue/unlock_queue. Unset: the state's own mutex.
struct QueueLock {
    void (*lock)(void *opaque, uint32_t family, uint32_t index) = nullptr;
    void (*unlock)(void *opaque, uint32_t family, uint32_t index) = nullptr;
    void *opaque = nullptr;
};

// The instance-level entry points the library uses, loaded for one instance
// (no process-wide function pointers beyond the loader's own).
struct InstanceFns {
    PFN_vkDestroyInstance DestroyInstance = nullptr;
    PFN_vkEnumeratePhysicalDevices EnumeratePhysicalDevices = nullptr;
    PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties = nullptr;
    PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2 = nullptr;
    PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2 = nullptr;
    PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties = nullptr;
    PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties = nullptr;
    PFN_vkCreateDevice CreateDevice = nullptr;
    PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
    PFN_vkCreateDebugUtilsMessengerEXT CreateDebugUtilsMessengerEXT = nullptr;
    PFN_vkDestroyDebugUtilsMessengerEXT DestroyDebugUtilsMessengerEXT = nullptr;
    PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties = nullptr;
    PFN_vkGetPhysicalDeviceFormatProperties GetPhysicalDeviceFormatProperties = nullptr;
    PFN_vkGetPhysicalDeviceExternalBufferProperties GetPhysicalDeviceExternalBufferProperties = nullptr;
    PFN_vkGetPhysicalDeviceImageFormatProperties2 GetPhysicalDeviceImageFormatProperties2 = nullptr;

    // Through `gipa`, or the loader's vkGetInstanceProcAddr when it is null.
    void load(VkInstance instance, PFN_vkGetInstanceProcAddr gipa = nullptr);
};

// A caller's instance, device and queue (vmaf_vulkan_state_init_external). The
// caller keeps ownership; `enabled_features` (a Features2 chain) may be null.
struct ExternalDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
    uint32_t queue_family = 0, queue_index = 0;
    QueueLock lock;
    const VkPhysicalDeviceFeatures2 *enabled_features = nullptr;
    std::vector<std::string> extensions;
    uint32_t api_version = 0;
    unsigned frames_in_flight = kDefaultFramesInFlight;
};

// Device extensions the library enables on a device of its own when the device has
// them, and uses when an adopted device has them enabled (external memory imports;
// host pictures read where they are, vulkan/host_import.h).
inline constexpr const char *kOptionalExtensions[] = {
    VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
    VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME,
    VK_EXT_IMAGE_DRM_FORMAT_MODIFIER_EXTENSION_NAME,
    VK_EXT_QUEUE_FAMILY_FOREIGN_EXTENSION_NAME,
    VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME,
};

class State {
public:
    // Create an instance and device of our own, as `cfg` says.
    static int create(const Config &cfg, std::unique_ptr<State> *out);
    // Use a caller's device: nothing is created but the state's own objects, and
    // nothing of the caller's is destroyed.
    static int adopt(const ExternalDevice &ext, std::unique_ptr<State> *out);
    // Every physical device in the loader's order (the order indices refer to).
    static int list_devices(std::vector<DeviceInfo> *out);

    ~State();
    State(const State &) = delete;
    State &operator=(const State &) = delete;

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physical_device() const { return physical_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queue_family() const { return queue_family_; }
    bool owned() const { return owned_; }

    // Device-level entry points of this device.
    const VolkDeviceTable &fn() const { return fn_; }
    const InstanceFns &ifn() const { return ifn_; }
    const VkPhysicalDeviceProperties &properties() const { return props_; }
    const VkPhysicalDeviceLimits &limits() const { return props_.limits; }
    const VkPhysicalDeviceMemoryProperties &memory_properties() const { return mem_props_; }
    const DeviceInfo &info() const { return info_; }
    // Whether this device extension is enabled (by us, or by the caller who
    // created the device).
    bool has_extension(std::string_view name) const;
    // Whether kernels may use 64-bit floats (shaderFloat64): optional; the
    // features that need it (float sums in libvmaf's double precision) run on
    // the CPU without it.
    bool float64() const { return float64_; }
    // Whether hostQueryReset is enabled: timestamp queries are reset with
    // vkResetQueryPool, not a command (which costs the GPU a pause per frame).
    bool host_query_reset() const { return host_query_reset_; }
    // Whether each kernel's compiled statistics (registers, shared memory, as
    // the driver names them) are logged when it is built:
    // VMAF_VULKAN_KERNEL_STATS on a device of our own that has
    // VK_KHR_pipeline_executable_properties.
    bool kernel_stats() const { return kernel_stats_; }
    // VK_EXT_external_memory_host's minImportedHostPointerAlignment; 0 when the
    // extension is not enabled (host pictures are then always copied).
    VkDeviceSize host_import_alignment() const { return host_import_alignment_; }
    // Whether the queue writes timestamps, and the nanoseconds per tick.
    bool timestamps() const { return timestamp_bits_ != 0; }
    uint32_t timestamp_bits() const { return timestamp_bits_; }
    double timestamp_period_ns() const { return double(props_.limits.timestampPeriod); }
    unsigned frames_in_flight() const { return frames_in_flight_; }
    Allocator &allocator() { return *allocator_; }
    // The pipelines built on this device, shared by its contexts.
    PipelineShelf &pipelines() { return *pipelines_; }
    // The constant tables uploaded on this device, shared by its contexts
    // (upload_table in vulkan/command.h).
    TableShelf &tables() { return *tables_; }
    // A fact about this device worked out once (a probe kernel's verdict):
    // `work` runs the first time `key` is asked for, under a lock, and its
    // result is kept unless negative (an error, tried again next time).
    int once(const std::string &key, const std::function<int()> &work);
    // Every pipeline of this device is made through it (vulkan/pipeline_cache.h).
    VkPipelineCache pipeline_cache() const;
    PipelineCache *pipeline_cache_file() const { return pipeline_cache_.get(); }
    // Profile mode (off by default): engines started from now on time every
    // feature's work separately (Engine::profile()), running the features of a
    // stage one after another instead of side by side.
    void set_profiling(bool on) { profiling_ = on; }
    bool profiling() const { return profiling_; }

    // Submit to the compute queue under the queue lock.
    VkResult submit(const VkSubmitInfo &info, VkFence fence = VK_NULL_HANDLE);

    // Where host pictures' uploads run (Engine::submit, ADR 0044): in the frame's
    // own submission (None), on a queue of a transfer-only family beside the
    // kernels (Transfer: a device of our own that has one), or in a submission of
    // their own on the compute queue (Compute: VMAF_VULKAN_TRANSFER_QUEUE=compute,
    // for tests). transfer_family() is the lane's queue family.
    enum class Lane { None, Transfer, Compute };
    Lane transfer_lane() const { return lane_; }
    uint32_t transfer_family() const { return xfer_family_; }
    // Submit to the lane's queue (Lane::Compute: the compute queue).
    VkResult submit(Lane lane, const VkSubmitInfo &info, VkFence fence = VK_NULL_HANDLE);

    // Submissions to the compute queue so far, the transfer lane's not counted
    // (diagnostics and tests).
    uint64_t submissions() const { return submissions_.load(); }

    // Fault injection, for tests: the nth next call (1: the very next) of the
    // kind fails with `result` instead of reaching the driver. The engine's
    // queue submissions, its waits for frames, device memory allocations and
    // imports of host pictures (HostImport: the picture is then copied) consult
    // it; nothing else.
    enum class Fault { Submit, Wait, Allocate, HostImport, Count };
    void inject_fault(Fault what, unsigned nth, VkResult result);
    VkResult injected(Fault what);  // VK_SUCCESS when no fault is due
    unsigned fault_calls(Fault what) const { return faults_[int(what)].calls.load(); }  // so far

    // A wait for a frame timed out: the GPU may still be using every object of
    // this device, so nothing of it is destroyed any more (contexts, pools and
    // the state leak what they hold, and say so).
    void mark_hung() { hung_.store(true); }
    bool hung() const { return hung_.load(); }

    // Contexts that imported this state and are not closed yet: the state must
    // outlive them (vmaf_vulkan_state_free refuses while any is left).
    void attach() { contexts_.fetch_add(1); }
    void detach() { contexts_.fetch_sub(1); }
    unsigned attached() const { return contexts_.load(); }

    // Messages from the validation layer since creation (zero without it).
    bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }
    unsigned validation_errors() const { return errors_.load(); }
    unsigned validation_warnings() const { return warnings_.load(); }

private:
    State() = default;
    int create_instance(bool validation, bool validation_required);
    int pick_device(const Config &cfg);
    int create_device();
    int check_adopted(const ExternalDevice &ext);
    int finish(unsigned frames_in_flight);
    VkResult submit_compute(const VkSubmitInfo &info, VkFence fence);
    static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                     void *user);

    bool owned_ = true;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queue_family_ = 0, queue_index_ = 0;
    InstanceFns ifn_;
    VolkDeviceTable fn_{};
    VkPhysicalDeviceProperties props_{};
    VkPhysicalDeviceMemoryProperties mem_props_{};
    DeviceInfo info_;
    std::vector<std::string> extensions_;
    uint32_t timestamp_bits_ = 0;
    bool float64_ = false;
    // State::create's start and its steps' ends, in ms from it (finish() logs them).
    std::optional<SteadyTime> created_at_;
    double startup_ms_[3] = {};
    bool host_query_reset_ = false;
    bool kernel_stats_ = false;
    VkDeviceSize host_import_alignment_ = 0;
    bool profiling_ = false;
    unsigned frames_in_flight_ = kDefaultFramesInFlight;
    std::unique_ptr<Allocator> allocator_;
    std::unique_ptr<PipelineShelf> pipelines_;
    std::unique_ptr<TableShelf> tables_;
    std::unique_ptr<PipelineCache> pipeline_cache_;
    QueueLock queue_lock_;
    std::mutex queue_mutex_;
    Lane lane_ = Lane::None;
    VkQueue xfer_queue_ = VK_NULL_HANDLE;
    uint32_t xfer_family_ = 0;
    std::mutex xfer_mutex_;
    std::mutex once_mutex_;
    std::map<std::string, int> once_;
    std::atomic<unsigned> errors_{0}, warnings_{0};
    std::atomic<uint64_t> submissions_{0};
    std::atomic<unsigned> contexts_{0};
    std::atomic<bool> hung_{false};
    struct InjectedFault {
        std::atomic<unsigned> countdown{0};
        std::atomic<unsigned> calls{0};
        VkResult result = VK_SUCCESS;
    };
    InjectedFault faults_[int(Fault::Count)];
};

}  // namespace vmaf::vk
