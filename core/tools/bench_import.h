// vmaf_bench's own Vulkan device, for the vulkan-import mode: the part of a
// decoder or renderer that owns the instance, device and queue (the library
// adopts them through vmaf_vulkan_state_init_external()) and holds frames in
// VkImages. Before the timed loop a ring of frame pairs is uploaded once; in the
// loop each frame is handed to the library by description only.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "libvmaf/libvmaf_vulkan.h"
#include "vulkan/state.h"
#include "vulkan/vk.h"

namespace vmaf::bench {

class FrameCycle;

class CallerDevice {
public:
    // `device`: an index in vmaf_vulkan_list_devices() order, a name substring,
    // or empty for the library's automatic choice. `validation`: load the Khronos
    // validation layer and count its messages (validation_messages()).
    // graphics: the queue family a renderer uses (graphics and compute);
    // otherwise a compute-only family where the device has one, as FFmpeg's
    // libvmaf_vulkan filter picks among FFmpeg's queues.
    static int create(const std::string &device, bool validation, bool graphics, std::unique_ptr<CallerDevice> *out,
                      std::string *err);
    ~CallerDevice();
    CallerDevice(const CallerDevice &) = delete;
    CallerDevice &operator=(const CallerDevice &) = delete;

    VmafVulkanExternalHandles handles(unsigned max_outstanding_frames);
    const std::string &name() const { return name_; }
    // The queue family it shares with the library, as the output names it:
    // "queue family 2 (compute)" or "... (graphics and compute)".
    std::string queue_name() const;
    unsigned validation_messages() const { return messages_.load(); }

private:
    friend class ImageRing;
    CallerDevice() = default;
    int create_instance(bool validation, std::string *err);
    int pick_device(unsigned index, bool graphics, std::string *err);
    int create_device(std::string *err);
    int memory_type(uint32_t bits, VkMemoryPropertyFlags want, uint32_t *out) const;
    // Submit under the queue lock the library also takes, and wait for it.
    int submit_and_wait(VkCommandBuffer cmd, const VkSemaphore *signal, unsigned n, uint64_t value, std::string *err);
    static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *, void *);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t family_ = 0;
    bool family_graphics_ = false;
    std::string name_;
    VolkDeviceTable fn_{};
    VkPhysicalDeviceMemoryProperties memory_{};
    PFN_vkDestroyInstance destroy_instance_ = nullptr;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger_ = nullptr;
    PFN_vkGetPhysicalDeviceFormatProperties format_properties_ = nullptr;
    vk::FeatureChain features_;
    std::mutex queue_mutex_;
    std::atomic<unsigned> messages_{0};
};

// `frames.size()` pairs of 8-bit 4:2:0 pictures in VkImages of the caller's
// device (one G8_B8_R8_3PLANE_420 image per picture, or three R8 images where the
// device cannot copy the multi-plane format), each with its timeline semaphore.
class ImageRing {
public:
    // How each picture is stored: Auto takes the multi-plane image where the
    // device can copy it.
    enum class Layout { Auto, MultiPlane, Planar };

    static int create(CallerDevice &dev, const FrameCycle &frames, Layout layout, std::unique_ptr<ImageRing> *out,
                      std::string *err);
    ~ImageRing();
    ImageRing(const ImageRing &) = delete;
    ImageRing &operator=(const ImageRing &) = delete;

    // Import side `side` of frame `index` (pair index % size()) into `vmaf`: waits
    // for the value the picture's semaphore last reached, signals the next.
    int import(VmafContext *vmaf, VmafVulkanImportSide side, unsigned index);
    // Wait until the library has finished reading every picture.
    void wait_idle();
    const char *layout_name() const { return multi_plane_ ? "G8_B8_R8_3PLANE_420" : "3 x R8"; }

private:
    struct Picture {
        VkImage img[3] = {};
        VkDeviceMemory memory[3] = {};
        VkSemaphore sem[3] = {};  // one per image
        uint64_t value = 0;       // what they reach once the last work on them is done
    };
    explicit ImageRing(CallerDevice &dev) : dev_(dev) {}
    int create_picture(Picture *p, std::string *err);
    int upload(Picture *p, const VmafPicture &pic, std::string *err);

    CallerDevice &dev_;
    bool multi_plane_ = false;
    uint32_t usage_ = 0, create_flags_ = 0;  // of the images, told to the library
    unsigned w_ = 0, h_ = 0;
    std::vector<Picture> pics_;  // reference and distorted of each pair, in turn
};

}  // namespace vmaf::bench
