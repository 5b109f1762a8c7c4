// Compute pipelines from embedded SPIR-V.
//
// Every kernel of the library has the same simple interface: storage buffers at
// bindings 0..n-1 of set 0, then optional sampled images (read with texelFetch;
// the pipeline holds their nearest-filter sampler), optional push constants,
// optional specialization constants (32-bit). A ComputePipeline owns a small descriptor pool for the
// sets its feature needs; its shader module, layouts and pipeline are shared with every other
// ComputePipeline of the same description on the device.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "spirv.h"
#include "vulkan/vk.h"

namespace vmaf::vk {

class State;

struct SpecConstant {
    uint32_t id;     // constant_id in the shader (local_size_x_id counts too)
    uint32_t value;  // a uint, int (bit pattern) or bool (0/1) constant
};

struct PipelineDesc {
    const spirv::Shader *shader;
    unsigned buffers = 0;                // storage buffers at bindings 0..buffers-1
    unsigned images = 0;                 // combined image samplers after them
    uint32_t push_constant_size = 0;     // bytes, a multiple of 4 (at most 128)
    std::span<const SpecConstant> spec;  // e.g. {0, workgroup size}
    unsigned max_sets = 1;               // descriptor sets make_set() may hand out
};

// One storage buffer binding: a range of a buffer.
struct BufferRange {
    VkBuffer buffer;
    VkDeviceSize offset = 0;
    VkDeviceSize size = VK_WHOLE_SIZE;
};

class ComputePipeline {
public:
    static int create(State &st, const PipelineDesc &desc, std::unique_ptr<ComputePipeline> *out);
    ~ComputePipeline();
    ComputePipeline(const ComputePipeline &) = delete;
    ComputePipeline &operator=(const ComputePipeline &) = delete;

    // A descriptor set with `buffers[i]` at binding i (as many as the desc said).
    int make_set(std::span<const BufferRange> buffers, VkDescriptorSet *out);
    // Point image `i` of `set` (binding buffers + i) at `view`, read in `layout`.
    // The GPU must be done with the set's earlier uses.
    void set_image(VkDescriptorSet set, unsigned i, VkImageView view, VkImageLayout layout) const;

    // Bind the pipeline and `set`, push `push` (push_constant_size bytes), dispatch.
    void dispatch(VkCommandBuffer cmd, VkDescriptorSet set, const void *push, uint32_t groups_x,
                  uint32_t groups_y = 1, uint32_t groups_z = 1) const;

    const char *name() const { return name_; }

private:
    explicit ComputePipeline(State &st) : st_(st) {}

    State &st_;
    const char *name_ = "";
    unsigned buffers_ = 0;
    unsigned max_sets_ = 0, sets_ = 0;  // descriptor sets the pool holds, and handed out
    VkSampler sampler_ = VK_NULL_HANDLE;
    uint32_t push_size_ = 0;
    // The module, layouts, sampler and pipeline, shared by the contexts of the
    // device (PipelineCache::shared); the handles below are theirs.
    std::shared_ptr<void> objects_;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

}  // namespace vmaf::vk
