// SPDX-License-Identifier: BSD-2-Clause-Patent
/* libvmaf-vk: the Vulkan compute backend.
 * Shaped like libvmaf 3.x's <libvmaf/libvmaf_cuda.h>: create a state (one device),
 * import it into a context before its first picture, and the features that have a
 * GPU twin run on that device with the same scores as on the CPU; the others stay
 * on the CPU.
 *
 *     VmafVulkanConfiguration cfg = { .device_index = VMAF_VULKAN_DEVICE_AUTO };
 *     VmafVulkanState *vk;
 *     if (vmaf_vulkan_state_init(&vk, cfg) == 0)
 *         vmaf_vulkan_import_state(vmaf, vk);
 *     ... vmaf_read_pictures(), vmaf_close(vmaf) ...
 *     vmaf_vulkan_state_free(&vk);
 *
 * Beyond that: adopt a caller's instance and device (vmaf_vulkan_state_init_external),
 * hand in pictures that already live in GPU-visible memory (DEVICE picture pools),
 * or score frames that are already on the GPU: VkImages (vmaf_vulkan_import_image),
 * opaque-fd or DMA-BUF memory (vmaf_vulkan_import_external) and VA-API surfaces
 * (vmaf_vulkan_import_va_surface), with vmaf_vulkan_read_imported_pictures().
 * docs/api/vulkan.md walks through each with examples.
 *
 * The library does not link the Vulkan loader: it opens libvulkan.so.1 at run time,
 * so a program using it runs (on the CPU) where there is no Vulkan.
 *
 * Environment: VMAF_VULKAN_DEVICE (an index or a name substring) picks the device
 * when the configuration leaves it automatic; VMAF_VULKAN_VALIDATION=1 turns on the
 * Khronos validation layer when it is installed.
 *
 * Errors are negative errno values: -ENOSYS when the library was built without
 * Vulkan, -ENODEV when there is no loader, no driver or no suitable device,
 * -ENOTSUP when the chosen device lacks what the kernels need, -EINVAL on bad
 * arguments. Each failure also writes a log line saying why. */
#ifndef LIBVMAF_LIBVMAF_VULKAN_H
#define LIBVMAF_LIBVMAF_VULKAN_H

#include <stddef.h>
#include <stdint.h>

#include "libvmaf/libvmaf.h"

/* The Vulkan types of the interoperation API below, when the headers exist. */
#ifndef VK_VERSION_1_0
#  if defined(__has_include)
#    if __has_include(<vulkan/vulkan_core.h>)
#      include <vulkan/vulkan_core.h>
#    endif
#  endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafVulkanState VmafVulkanState;

/** device_index value: VMAF_VULKAN_DEVICE if set, else the best usable device
 *  (a discrete GPU before an integrated one, before a virtual one, before a CPU). */
#define VMAF_VULKAN_DEVICE_AUTO (-1)

typedef struct VmafVulkanConfiguration {
    /** Index in vmaf_vulkan_list_devices() order, or VMAF_VULKAN_DEVICE_AUTO. */
    int device_index;
    /** If not NULL or empty: the first usable device whose name contains this
     *  (case-insensitive), else the first such device. Wins over device_index. */
    const char *device_name;
    /** Nonzero: load VK_LAYER_KHRONOS_validation and log its messages; init fails
     *  with -ENOTSUP when the layer is not installed. For debugging. */
    int enable_validation;
    /** Frames submitted to the GPU before the oldest one's scores are waited for;
     *  0 means 3. At most 16. */
    unsigned frames_in_flight;
    /** Room to grow without changing the size of this struct: must be zero. */
    uint64_t reserved[8];
} VmafVulkanConfiguration;

/**
 * Create a Vulkan state: an instance and a device with one compute queue.
 *
 * @param state receives the new state.
 * @param cfg   device choice and options.
 *
 * @return 0 on success, or < 0 (a negative errno code) on error.
 */
int vmaf_vulkan_state_init(VmafVulkanState **state, VmafVulkanConfiguration cfg);

/**
 * Use `state` for this context's GPU features. Call before the first
 * vmaf_read_pictures(). The state must outlive the context; several contexts may
 * share one state. A context takes one state: a second import fails with -EBUSY.
 *
 * @return 0 on success, or < 0 (a negative errno code) on error.
 */
int vmaf_vulkan_import_state(VmafContext *vmaf, VmafVulkanState *state);

/**
 * Free a state created by vmaf_vulkan_state_init() or
 * vmaf_vulkan_state_init_external(), after every context that imported it is
 * closed and every DEVICE picture of those contexts is unreferenced (their
 * buffers belong to the state). Sets *state to NULL. While a context that
 * imported it is still open, fails with -EBUSY and frees nothing.
 *
 * @return 0 on success, or < 0 (a negative errno code) on error.
 */
int vmaf_vulkan_state_free(VmafVulkanState **state);

/** Values of VkPhysicalDeviceType. */
enum VmafVulkanDeviceType {
    VMAF_VULKAN_DEVICE_TYPE_OTHER = 0,
    VMAF_VULKAN_DEVICE_TYPE_INTEGRATED_GPU = 1,
    VMAF_VULKAN_DEVICE_TYPE_DISCRETE_GPU = 2,
    VMAF_VULKAN_DEVICE_TYPE_VIRTUAL_GPU = 3,
    VMAF_VULKAN_DEVICE_TYPE_CPU = 4,
};

typedef struct VmafVulkanDeviceInfo {
    char name[256];               /**< VkPhysicalDeviceProperties.deviceName */
    uint32_t vendor_id;           /**< PCI vendor ID (0x10de NVIDIA, 0x1002 AMD, 0x8086 Intel) */
    uint32_t device_id;
    enum VmafVulkanDeviceType type;
    uint32_t api_version;         /**< packed as VK_MAKE_API_VERSION */
    int usable;                   /**< nonzero when it has everything the kernels need */
    uint8_t uuid[16];             /**< VkPhysicalDeviceIDProperties.deviceUUID (all zero when the
                                       device cannot tell it): the same physical device has the
                                       same UUID in every process, whatever the listing order */
    uint32_t reserved[4];
} VmafVulkanDeviceInfo;

/**
 * List the Vulkan devices, in the order device_index refers to.
 *
 * @param devices  filled with up to `capacity` entries (may be NULL when capacity is 0).
 * @param capacity entries `devices` holds.
 * @param count    receives the number of devices (also those that did not fit).
 *
 * @return 0 on success (a loader without drivers lists no devices), or < 0
 *         (a negative errno code) on error: -ENODEV without a loader.
 */
int vmaf_vulkan_list_devices(VmafVulkanDeviceInfo *devices, unsigned capacity, unsigned *count);

/**
 * Describe the device a state uses, as vmaf_vulkan_list_devices() would, without
 * listing the devices again (which creates a Vulkan instance of its own).
 *
 * @param state from vmaf_vulkan_state_init() or vmaf_vulkan_state_init_external().
 * @param info  receives the device's entry.
 *
 * @return 0 on success, or < 0 (a negative errno code) on error: -EINVAL for a
 *         NULL argument, -ENOSYS when built without Vulkan.
 */
int vmaf_vulkan_state_device_info(const VmafVulkanState *state, VmafVulkanDeviceInfo *info);

/**
 * @return the number (> 0) of usable Vulkan devices, -ENODEV when there are none
 *         (or no loader or driver), -ENOSYS when built without Vulkan.
 */
int vmaf_vulkan_available(void);

/* ------------------------------------------------------------------------------
 * What a context did on the GPU (benchmarks and tools; <libvmaf/libvmaf_introspect.h>
 * has the rest).
 */

/**
 * A context's GPU figures so far. The caller sets `size` to sizeof the struct it
 * was compiled with; the library fills the members that fit in it (members are
 * only ever added at the end), so a program built against an older header keeps
 * working.
 */
typedef struct VmafVulkanContextStats {
    size_t size;                  /**< set by the caller: sizeof(VmafVulkanContextStats) */
    int has_state;                /**< the context has a Vulkan state (imported or from VMAF_BACKEND) */
    int engine_started;           /**< the GPU engine started (the first picture went to it) */
    int host_copies;              /**< the CPU features read host copies the GPU made of its
                                       frames (imported frames), not the host pictures */
    uint64_t gpu_frames;          /**< frames the GPU timed (0 without timestamps) */
    double gpu_total_ms;          /**< their GPU time, from the queue's timestamps */
    double gpu_min_ms, gpu_max_ms;
    uint64_t allocated_bytes;     /**< device memory the context's Vulkan state holds */
    unsigned validation_messages; /**< errors and warnings of the validation layer so far */
    /* The caller's side (host or device pictures through vmaf_read_pictures();
     * not imports). VMAF_VULKAN_STATS=1 prints them when the context closes. */
    uint64_t host_frames;         /**< frames that went to the GPU engine */
    double host_call_ms;          /**< the time the library took for them, on the caller's thread */
    double host_wait_ms;          /**< of it: waiting for an earlier frame's slot on the GPU and
                                       collecting finished frames' scores */
    double host_copy_ms;          /**< of it: copying pictures into staging memory (those the GPU
                                       does not read in place) */
    double host_span_ms;          /**< from the first call's start to the last one's end: what is not
                                       host_call_ms is the caller's own time between calls */
} VmafVulkanContextStats;

/**
 * Fill `stats` (up to stats->size bytes) with the context's GPU figures; all zero
 * (but `size`) for a context without a Vulkan state.
 *
 * @return 0; -EINVAL when an argument is NULL or stats->size is below
 *         sizeof(size_t) + sizeof(int); -ENOSYS when built without Vulkan.
 */
int vmaf_vulkan_context_stats(VmafContext *vmaf, VmafVulkanContextStats *stats);

/**
 * Profile mode: a timestamp after every part of a frame's command buffer, and
 * each feature's work after everything before it, so that each is measured alone
 * (the frames then take longer). Call after the state is imported and before the
 * first picture; needs a queue with timestamps (without, the profile stays empty).
 *
 * @return 0; -EINVAL when `vmaf` is NULL; -ENODEV when the context has no Vulkan
 *         state; -EBUSY when its engine already started; -ENOSYS without Vulkan.
 */
int vmaf_vulkan_profile_enable(VmafContext *vmaf);

/** One interval of a frame's command buffer in profile mode. */
typedef struct VmafVulkanProfileInterval {
    char name[256];   /**< "upload", "host copy", "readback", or the feature's name (the
                           names of the features one GPU instance serves joined by '+');
                           a feature whose work has steps gives one interval per step,
                           named "feature:step" (ssimulacra2: "ssimulacra2:rgb",
                           "ssimulacra2:hblur0", ...); always NUL-terminated, a longer
                           name cut to 255 bytes */
    int stage;        /**< the feature's stage; -1 for the engine's own parts */
    int carried;      /**< nonzero: the feature's work carried over from the frame before */
    double total_ms;  /**< its GPU time over `frames` */
} VmafVulkanProfileInterval;

/**
 * The profile so far: the intervals in command-buffer order.
 *
 * @param frames    receives the number of profiled frames (may be NULL).
 * @param total_ms  receives their whole frames' GPU time (may be NULL).
 * @param intervals filled with up to `capacity` intervals (NULL when capacity is 0).
 * @param count     receives the number of intervals (also those that did not fit).
 * @return 0 (an empty profile before the engine starts or outside profile mode);
 *         -EINVAL for a NULL `vmaf` or `count`, or NULL `intervals` with a capacity;
 *         -ENOSYS without Vulkan.
 */
int vmaf_vulkan_profile(VmafContext *vmaf, uint64_t *frames, double *total_ms,
                        VmafVulkanProfileInterval *intervals, unsigned capacity, unsigned *count);

/**
 * Whether the context's GPU engine runs an extractor (by its name, as
 * vmaf_feature_extractor_name() gives it); a feature it does not run is computed
 * on the CPU, if it was asked for.
 *
 * @return 1 when the engine runs it, 0 when it does not (or no engine started);
 *         -EINVAL when an argument is NULL; -ENOSYS without Vulkan.
 */
int vmaf_vulkan_feature_on_gpu(VmafContext *vmaf, const char *extractor);

/* ------------------------------------------------------------------------------
 * Choosing the backend.
 *
 * vmaf_init() chooses for a caller that does not: VMAF_BACKEND (docs/environment.md).
 * A caller that chooses (a --backend option, a backend= argument) creates its
 * context with vmaf_init_backend(), which follows the same rule with the same
 * messages and never reads VMAF_BACKEND:
 *
 *     VmafVulkanConfiguration dev = { .device_index = VMAF_VULKAN_DEVICE_AUTO };
 *     VmafBackendChoice chosen;
 *     int err = vmaf_init_backend(&vmaf, cfg, VMAF_BACKEND_AUTO, dev, &chosen);
 *     ... chosen.backend is VMAF_BACKEND_VULKAN (chosen.device says which) or
 *         VMAF_BACKEND_CPU (chosen.reason says why not Vulkan) ...
 * ------------------------------------------------------------------------------ */

enum VmafBackend {
    /** The CPU extractors compute every feature. */
    VMAF_BACKEND_CPU = 0,
    /** A Vulkan device computes the features that have a GPU twin; no usable
     *  device is an error. */
    VMAF_BACKEND_VULKAN = 1,
    /** VULKAN when a device is usable, else CPU (with one notice a process). */
    VMAF_BACKEND_AUTO = 2,
};

typedef struct VmafBackendChoice {
    /** Where the context computes: VMAF_BACKEND_CPU or VMAF_BACKEND_VULKAN. */
    enum VmafBackend backend;
    /** On VMAF_BACKEND_VULKAN: the device, as vmaf_vulkan_list_devices() lists it. */
    VmafVulkanDeviceInfo device;
    /** Why no Vulkan device is used, when one was asked for (AUTO that chose the
     *  CPU, or VULKAN that failed); "" otherwise. */
    char reason[256];
} VmafBackendChoice;

/**
 * Create a context, as vmaf_init() does, on the backend the caller chooses.
 * VMAF_BACKEND is not read. On VULKAN (and AUTO when a device is usable) the
 * context gets a device of its own, made from `device` as vmaf_vulkan_state_init()
 * makes one (device_index VMAF_VULKAN_DEVICE_AUTO: any, that is VMAF_VULKAN_DEVICE,
 * else the best usable device), freed by vmaf_close(). A state imported later
 * (vmaf_vulkan_import_state) takes its place. A nonzero cfg.gpumask keeps the
 * context off the GPU: AUTO chooses the CPU, VULKAN fails with -EINVAL.
 *
 * @param vmaf    receives the context (NULL on error).
 * @param cfg     as for vmaf_init().
 * @param backend VMAF_BACKEND_CPU, VMAF_BACKEND_VULKAN or VMAF_BACKEND_AUTO.
 * @param device  the device and its options (ignored for CPU).
 * @param chosen  receives what was chosen (may be NULL); on error, its reason.
 *
 * @return 0; -EINVAL for an unknown backend, a device_index below
 *         VMAF_VULKAN_DEVICE_AUTO, nonzero reserved fields, or a gpumask with
 *         VULKAN; under VULKAN, -ENOSYS when built without Vulkan and the device's
 *         error (-ENODEV, -ENOTSUP) when none is usable. Each with a log line.
 */
int vmaf_init_backend(VmafContext **vmaf, VmafConfiguration cfg, enum VmafBackend backend,
                      VmafVulkanConfiguration device, VmafBackendChoice *chosen);

/* ------------------------------------------------------------------------------
 * Pictures in GPU-visible memory.
 *
 * Host pictures the library allocated (vmaf_picture_alloc, host pools) are read
 * by the GPU where they are when the device has VK_EXT_external_memory_host: the
 * frame's command buffer copies them from host memory and the host copies
 * nothing; they are referenced until the frame's GPU work is done. Other host
 * pictures (or VMAF_VULKAN_HOST_IMPORT=0) are copied into a staging buffer first.
 * On a state of the library's own whose device has a transfer-only queue family,
 * those copies run on a queue there, beside the earlier frames' kernels.
 * Pictures fetched from a DEVICE pool are already in host-visible device memory:
 * the frame's command buffer copies them on the GPU and the host copies nothing.
 * Any picture (host or device) also works with the CPU features.
 *
 *     VmafVulkanPictureConfiguration pc = {
 *         .pic_params = { .w = 1920, .h = 1080, .bpc = 8, .pix_fmt = VMAF_PIX_FMT_YUV420P },
 *         .pic_cnt = 8,
 *         .pic_prealloc_method = VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE,
 *     };
 *     vmaf_vulkan_preallocate_pictures(vmaf, pc);     (after vmaf_vulkan_import_state)
 *     vmaf_vulkan_picture_fetch(vmaf, &ref);  ... fill ref.data[] ...
 *     vmaf_vulkan_picture_fetch(vmaf, &dist); ... fill dist.data[] ...
 *     vmaf_read_pictures(vmaf, &ref, &dist, index);   (takes both references)
 * ------------------------------------------------------------------------------ */

enum VmafVulkanPicturePreallocationMethod {
    /** No pool: vmaf_vulkan_picture_fetch() allocates a new host picture. */
    VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_NONE = 0,
    /** A pool of host pictures (like vmaf_preallocate_pictures()). */
    VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_HOST,
    /** A pool of pictures in host-visible device buffers (device-local where the
     *  device has such memory, e.g. resizable BAR), copied on the GPU. */
    VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE,
};

typedef struct VmafVulkanPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    /** Pictures in the pool (HOST and DEVICE); 0 means 2 * frames in flight + 2.
     *  Ignored for NONE. */
    unsigned pic_cnt;
    enum VmafVulkanPicturePreallocationMethod pic_prealloc_method;
} VmafVulkanPictureConfiguration;

/**
 * Preallocate this context's pictures. Call once, after vmaf_vulkan_import_state()
 * (DEVICE pictures live on that state's device) and before the first picture.
 *
 * Pictures of one context must all have the same backing: a frame whose two
 * pictures differ, or whose backing differs from the first frame's, is refused
 * with -EINVAL. DEVICE pictures are tagged in VmafPicture.priv (library-owned).
 *
 * @return 0, -EINVAL on bad arguments (pic_cnt above 1024 too) or without an
 *         imported state (DEVICE), -EBUSY when called twice, -ENOMEM when the
 *         memory is not there, -ENOTSUP when the device has no host-visible
 *         coherent memory for DEVICE pictures.
 */
int vmaf_vulkan_preallocate_pictures(VmafContext *vmaf, VmafVulkanPictureConfiguration cfg);

/**
 * Take a picture from the pool (or allocate one, for NONE), waiting until one is
 * free: a picture returns to the pool when its last reference is dropped, for
 * DEVICE pictures once the GPU has copied it. While waiting for a DEVICE picture,
 * finished GPU frames are collected, so a pool deeper than the frames in flight
 * never deadlocks; with no frame threads, a DEVICE pool whose every picture the
 * caller holds answers -EBUSY instead of waiting. A HOST pool waits like
 * vmaf_fetch_preallocated_picture(): the caller must not hold every picture; its
 * pictures read in place by frames in flight come back as those frames are
 * collected, which fetching on the thread that reads pictures does (from another
 * thread it waits for that thread to collect them).
 *
 * @return 0; -EINVAL when vmaf_vulkan_preallocate_pictures() was not called;
 *         -EBUSY (above); a GPU failure of a collected frame as a negative errno.
 */
int vmaf_vulkan_picture_fetch(VmafContext *vmaf, VmafPicture *pic);

/**
 * Wait until the GPU has finished every frame handed to this context so far and
 * write their scores to the context, so vmaf_score_at_index() and friends see
 * them. Imported images and external memory of those frames may be reused or
 * destroyed once this returns. Returns 0 at once when nothing is in flight.
 *
 * @return 0, or < 0 (a negative errno code) when a frame failed.
 */
int vmaf_vulkan_wait_compute(VmafContext *vmaf);

/** vmaf_vulkan_import_*() selector: which picture of the frame this is. */
enum VmafVulkanImportSide {
    VMAF_VULKAN_IMPORT_REFERENCE = 0,
    VMAF_VULKAN_IMPORT_DISTORTED = 1,
};

/**
 * The frame `index` has been imported on both sides (vmaf_vulkan_import_image(),
 * vmaf_vulkan_import_external(), vmaf_vulkan_import_va_surface(), in any mix):
 * record and submit its GPU work. Asynchronous: returns once the work is queued;
 * when `max_outstanding_frames` (or frames_in_flight) frames are already queued it
 * first waits for the oldest. Scores land in the context like those of
 * vmaf_read_pictures(): flush with vmaf_read_pictures(vmaf, NULL, NULL, 0), then
 * vmaf_score_at_index(), vmaf_score_pooled(), vmaf_write_output() as usual.
 *
 * The picture geometry is fixed by the first import; every feature of the context
 * must run on the GPU (imported pictures never reach host memory): otherwise the
 * first import fails with -ENOTSUP and says which feature is on the CPU. A
 * context that imports never takes host pictures, and the reverse (-EINVAL).
 *
 * When it fails after the side checks (an image given with two layouts, a Vulkan
 * error), the frame's imports are dropped and its semaphores are not signalled:
 * the caller must not wait for their signal_value.
 *
 * @return 0; -EINVAL when a side is missing, `index` is not the imported one or
 *         one image comes with two layouts (or is to be read both sampled and
 *         copied); a Vulkan failure as a negative errno.
 */
int vmaf_vulkan_read_imported_pictures(VmafContext *vmaf, unsigned index);

/**
 * Import one picture of frame `index` from a VA-API surface: the surface is
 * synchronized (vaSyncSurface), exported read-only as DRM PRIME 2 DMA-BUFs
 * (vaExportSurfaceHandle) and imported like vmaf_vulkan_import_external(); the
 * exported file descriptors are closed here. Surfaces of one layer in NV12, P010,
 * P012, P016 (msb-aligned), I420, YV12, 444P or Y800 are understood; others are
 * refused with -ENOTSUP.
 *
 * @param va_display a VADisplay.
 * @param va_surface a VASurfaceID.
 *
 * libva is not linked: the first call opens libva.so.2 (dlopen).
 *
 * @return 0; -ENOSYS when the library was built without libva (meson option
 *         vaapi) or libva.so.2 cannot be opened; -ENOTSUP when the device cannot
 *         import DMA-BUFs; -EINVAL or -EIO when the surface cannot be exported.
 */
int vmaf_vulkan_import_va_surface(VmafContext *vmaf, enum VmafVulkanImportSide side,
                                  void *va_display, unsigned va_surface, unsigned index);

/* ------------------------------------------------------------------------------
 * Interoperation with a caller's Vulkan objects. These declarations are there
 * when the Vulkan headers are: included before this header (vulkan.h, volk.h) or
 * found on the include path (vulkan_core.h is then included above).
 * ------------------------------------------------------------------------------ */
#ifdef VK_VERSION_1_0

/**
 * A caller's instance, device and queue, adopted by vmaf_vulkan_state_init_external()
 * (FFmpeg's AVVulkanDeviceContext maps field by field). The caller keeps ownership
 * and destroys them after vmaf_vulkan_state_free().
 *
 * The device must be Vulkan 1.2 (api_version) with these features enabled:
 * timelineSemaphore, storageBuffer8BitAccess, storageBuffer16BitAccess,
 * shaderInt16, shaderInt64. shaderFloat64 is optional: with it enabled (and said
 * so in enabled_features) the float features' kernels run on the GPU, without it
 * those features run on the CPU. External memory imports additionally need, among
 * enabled_extensions: VK_KHR_external_memory_fd (opaque fds and DMA-BUFs),
 * VK_EXT_external_memory_dma_buf (DMA-BUFs) and VK_EXT_image_drm_format_modifier
 * (DMA-BUFs that are not linear).
 */
typedef struct VmafVulkanExternalHandles {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    /** The caller's loader entry point; NULL: the system loader's (libvulkan.so.1). */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    /** The queue we submit to: its family must support compute (and so transfer).
     *  Prefer a compute-only family where the device has one: on an NVIDIA H100
     *  the kernels ran 1.5 times as fast there as on the graphics family (the
     *  library logs a note when handed a graphics family beside a compute-only
     *  one). */
    uint32_t queue_family_index;
    uint32_t queue_index;
    /** Called around every vkQueueSubmit of ours, when the queue is shared with
     *  other threads (FFmpeg's lock_queue/unlock_queue, opaque = the
     *  AVHWDeviceContext). Both NULL: the library serializes its own submissions
     *  only. Set both or neither. */
    void (*lock_queue)(void *opaque, uint32_t queue_family, uint32_t queue_index);
    void (*unlock_queue)(void *opaque, uint32_t queue_family, uint32_t queue_index);
    void *lock_opaque;
    /** The features the device was created with (VkPhysicalDeviceFeatures2 with
     *  its pNext chain: Vulkan11/12 feature structs or the individual ones).
     *  NULL: the library checks the physical device supports what it needs and
     *  trusts that it was enabled. */
    const VkPhysicalDeviceFeatures2 *enabled_features;
    /** The device extensions the caller enabled. */
    const char *const *enabled_extensions;
    unsigned n_enabled_extensions;
    /** The API version the device is used at: min(the instance's
     *  VkApplicationInfo.apiVersion, the device's apiVersion). At least 1.2. */
    uint32_t api_version;
    /** Frames queued on the GPU before the oldest is waited for; 0 means 3, at most
     *  16. Also bounds vmaf_vulkan_read_imported_pictures(). */
    unsigned max_outstanding_frames;
    /** Must be zero. */
    uint64_t reserved[8];
} VmafVulkanExternalHandles;

/**
 * Create a state on a caller's device: no instance or device is created, nothing
 * the caller owns is destroyed. Every queue submission of the library goes through
 * lock_queue/unlock_queue. The library never waits on the whole queue or device.
 *
 * @return 0; -EINVAL on bad arguments; -ENOTSUP when the device lacks what the
 *         kernels need (the log says what); -ENODEV when no entry point resolves.
 */
int vmaf_vulkan_state_init_external(VmafVulkanState **state, VmafVulkanExternalHandles handles);

/**
 * Turn on, in a caller's feature chain for vkCreateDevice, what a device handed to
 * vmaf_vulkan_state_init_external() needs: the features listed above, and the
 * optional ones the library uses where `supported` says the physical device has
 * them (shaderFloat64: the float features' kernels; hostQueryReset: the GPU
 * profile). Nothing is turned off and no other member or struct is touched, so the
 * caller's own needs and the library's go into one chain (as FFmpeg's Vulkan
 * hardware context gathers its users' features).
 *
 * @param features  A VkPhysicalDeviceFeatures2 whose pNext chain holds a
 *                  VkPhysicalDeviceVulkan11Features and a
 *                  VkPhysicalDeviceVulkan12Features (in any order, among others).
 * @param supported What the physical device has, as vkGetPhysicalDeviceFeatures2()
 *                  fills a chain of the same shape; NULL: the required features only.
 * @return 0; -EINVAL when `features` is NULL or not a VkPhysicalDeviceFeatures2, or
 *         when `features` or `supported` lacks one of the two structs (the log
 *         names it); -ENOSYS in a library built without Vulkan.
 */
int vmaf_vulkan_enable_device_features(VkPhysicalDeviceFeatures2 *features,
                                       const VkPhysicalDeviceFeatures2 *supported);

/** Images of one picture: one multi-plane image or one image per plane. */
#define VMAF_VULKAN_MAX_IMAGES 3

/**
 * One picture in VkImages of the state's device, shaped like FFmpeg's AVVkFrame:
 * img[i], layout[i], sem[i], sem_value[i] and queue_family[i] are the frame's own
 * per-image arrays (and format[i] is av_vkfmt_from_pixfmt()'s).
 *
 * Accepted layouts (width x height luma samples, chroma as pix_fmt says):
 *  - one multi-plane image, img[0]: 2-plane formats for 4:2:0/4:2:2 with
 *    interleaved chroma (VK_FORMAT_G8_B8R8_2PLANE_420_UNORM = NV12,
 *    VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16 = P010,
 *    ..._G16_B16R16_2PLANE_...), 3-plane formats (VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM,
 *    ..._G10X6_B10X6_R10X6_3PLANE_..., ..._G16_B16_R16_3PLANE_..., 420/422/444);
 *  - one image per plane: R8/R16 (also R10X6/R12X4) for each plane, or for
 *    2-plane pictures R8/R16 luma and R8G8/R16G16 interleaved chroma in img[1];
 *  - 4:0:0: one R8/R16 image.
 * 8-bit formats need bpc 8; 16-bit containers hold bpc (10, 12 or 16) bits: in the
 * low bits (FFmpeg's yuv420p10 in R16 images), or in the high bits for the X6/X4
 * formats and when msb_aligned is set (P010 in R16/R16G16 images).
 *
 * The library's kernels read the images directly (sampled, no copy) where `usage`
 * has VK_IMAGE_USAGE_SAMPLED_BIT, multi-plane images were created with
 * VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT (`create_flags`, for the views of single
 * planes) and the device samples the planes' formats; images in neither GENERAL
 * nor SHADER_READ_ONLY_OPTIMAL are moved to SHADER_READ_ONLY_OPTIMAL for the read.
 * Otherwise (usage 0 says "unknown") the images are copied, which needs
 * VK_IMAGE_USAGE_TRANSFER_SRC_BIT. Either way the reads are on the state's queue,
 * in submission order, and the scores are the same.
 */
typedef struct VmafVulkanImage {
    /** The images; the first VK_NULL_HANDLE ends the list. */
    VkImage img[VMAF_VULKAN_MAX_IMAGES];
    VkFormat format[VMAF_VULKAN_MAX_IMAGES];
    /** Layout of each image when the frame's work starts; not UNDEFINED. */
    VkImageLayout layout[VMAF_VULKAN_MAX_IMAGES];
    /** Layout each image is left in; VK_IMAGE_LAYOUT_UNDEFINED (0): layout[i]
     *  again. (FFmpeg: store it back in AVVkFrame.layout[i].) */
    VkImageLayout final_layout[VMAF_VULKAN_MAX_IMAGES];
    /** For VK_SHARING_MODE_EXCLUSIVE images owned by another queue family: that
     *  family, which must have released the image to ours (the acquire half is
     *  ours; the image stays with our family). VK_QUEUE_FAMILY_IGNORED for
     *  concurrent images or images already on our family. */
    uint32_t queue_family[VMAF_VULKAN_MAX_IMAGES];
    /** Timeline semaphore of each image (required). Our work waits until it
     *  reaches sem_value[i] and sets it to signal_value[i] (> sem_value[i]) when
     *  done reading (FFmpeg: sem_value[i] + 1, then store it back). */
    VkSemaphore sem[VMAF_VULKAN_MAX_IMAGES];
    uint64_t sem_value[VMAF_VULKAN_MAX_IMAGES];
    uint64_t signal_value[VMAF_VULKAN_MAX_IMAGES];
    unsigned width, height, bpc;
    enum VmafPixelFormat pix_fmt;
    /** Nonzero: 16-bit samples carry their bpc bits in the high bits. */
    int msb_aligned;
    /** VkImageUsageFlags the images were created with (FFmpeg:
     *  AVVulkanFramesContext.usage); 0 if unknown. */
    uint32_t usage;
    /** VkImageCreateFlags the images were created with (FFmpeg:
     *  AVVulkanFramesContext.img_flags). */
    uint32_t create_flags;
    /** Must be zero. */
    uint64_t reserved[3];
} VmafVulkanImage;

/**
 * Import one picture of frame `index` from VkImages. Nothing is submitted until
 * vmaf_vulkan_read_imported_pictures(index); the images must stay valid until the
 * semaphores reach signal_value (or vmaf_vulkan_wait_compute() returns).
 *
 * @return 0; -EINVAL for a bad description, a geometry other than the first
 *         import's, a side imported twice or an index other than the pending one;
 *         -ENOTSUP for a format the device cannot copy from, or (first import)
 *         a feature that is not on the GPU.
 */
int vmaf_vulkan_import_image(VmafContext *vmaf, enum VmafVulkanImportSide side,
                             const VmafVulkanImage *image, unsigned index);

enum VmafVulkanExternalMemoryType {
    /** An fd of VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT memory exported by a
     *  Vulkan device on the same physical device (same driver and device UUID),
     *  holding linear planes; not a dedicated allocation. Needs
     *  VK_KHR_external_memory_fd. */
    VMAF_VULKAN_EXTERNAL_MEMORY_OPAQUE_FD = 1,
    /** DMA-BUFs (VA-API, V4L2, DRM). Linear ones are read as buffers; tiled ones
     *  (drm_format_modifier) are imported as images. Needs
     *  VK_KHR_external_memory_fd, VK_EXT_external_memory_dma_buf and for tiled
     *  ones VK_EXT_image_drm_format_modifier. */
    VMAF_VULKAN_EXTERNAL_MEMORY_DMA_BUF = 2,
};

/** DRM_FORMAT_MOD_LINEAR. */
#define VMAF_VULKAN_DRM_FORMAT_MOD_LINEAR 0ull

/**
 * One picture in external memory: up to three memory objects (fds) and up to three
 * planes in them (VA-API's VADRMPRIMESurfaceDescriptor and FFmpeg's
 * AVDRMFrameDescriptor map onto it). n_planes == 2 means interleaved chroma in
 * plane 1 (NV12, P010); 3 means one plane per component; 1 is 4:0:0.
 */
typedef struct VmafVulkanExternalPicture {
    enum VmafVulkanExternalMemoryType type;
    unsigned n_objects;
    struct {
        /** The library imports a dup() of it: the caller keeps (and closes) its own. */
        int fd;
        /** Bytes of the object; 0: its size as lseek(SEEK_END) reports (DMA-BUF).
         *  For opaque fds: the exported allocation's allocationSize. */
        uint64_t size;
        /** For opaque fds: the exported allocation's memoryTypeIndex (Vulkan
         *  requires the import to repeat it). Ignored for DMA-BUFs. */
        uint32_t memory_type_index;
    } objects[VMAF_VULKAN_MAX_IMAGES];
    unsigned n_planes;
    struct {
        unsigned object;  /**< index into objects[] */
        uint64_t offset;  /**< bytes from the object's start; a multiple of 4 */
        uint64_t pitch;   /**< bytes from row to row; a multiple of 4 */
    } planes[VMAF_VULKAN_MAX_IMAGES];
    /** DMA-BUF layout; VMAF_VULKAN_DRM_FORMAT_MOD_LINEAR for opaque fds. */
    uint64_t drm_format_modifier;
    unsigned width, height, bpc;
    enum VmafPixelFormat pix_fmt;
    /** Nonzero: 16-bit samples carry their bpc bits in the high bits (P010). */
    int msb_aligned;
    /** Must be zero. */
    uint64_t reserved[4];
} VmafVulkanExternalPicture;

/**
 * Import one picture of frame `index` from external memory. The memory's contents
 * must be complete (e.g. after vaSyncSurface) and stay unchanged until
 * vmaf_vulkan_wait_compute() returns; the library's imports are released when the
 * frame's work is done.
 *
 * @return 0; -ENOTSUP (with a log line naming what is missing) when the device
 *         lacks the needed extension or cannot import this format and DRM format
 *         modifier; -EINVAL for a bad description, a handle the driver refuses or
 *         a memory_type_index that cannot back the import (see
 *         vmaf_vulkan_import_image() for the other cases); another negative errno
 *         for a Vulkan failure.
 */
int vmaf_vulkan_import_external(VmafContext *vmaf, enum VmafVulkanImportSide side,
                                const VmafVulkanExternalPicture *picture, unsigned index);

#endif /* VK_VERSION_1_0 */

#ifdef __cplusplus
}
#endif

#endif /* LIBVMAF_LIBVMAF_VULKAN_H */
