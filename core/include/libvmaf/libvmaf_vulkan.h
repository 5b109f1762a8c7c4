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

#include <stdint.h>

#include "libvmaf/libvmaf.h"

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
    /** If not NULL or empty: the first device whose name contains this
     *  (case-insensitive). Wins over device_index. */
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
 * share one state.
 *
 * @return 0 on success, or < 0 (a negative errno code) on error.
 */
int vmaf_vulkan_import_state(VmafContext *vmaf, VmafVulkanState *state);

/**
 * Free a state created by vmaf_vulkan_state_init(), after every context that
 * imported it is closed. Sets *state to NULL.
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
    uint32_t reserved[8];
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
 * @return the number (> 0) of usable Vulkan devices, -ENODEV when there are none
 *         (or no loader or driver), -ENOSYS when built without Vulkan.
 */
int vmaf_vulkan_available(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBVMAF_LIBVMAF_VULKAN_H */
