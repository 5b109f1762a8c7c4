// SPDX-License-Identifier: BSD-2-Clause-Patent
// Compute pipelines from embedded SPIR-V.
//
// Every kernel of the library has the same simple interface: storage buffers at
// bindings 0..n-1 of set 0, then optional sampled images (read with texelFetch;
// the pipeline holds their nearest-filter sampler), optional push constants,
// optional specialization constants (32-bit). A ComputePipeline owns its shader module, layouts, the
// pipeline and a small descriptor pool for the sets its feature needs.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

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

// The immutable device objects of one PipelineDesc.
struct PipelineObjects {
    VkShaderModule module = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
};

// The pipelines built on one device, by description (shader, bindings, push
// constant size, specialization constants). Pipelines are never externally
// synchronized in Vulkan, so contexts on several threads may record with the
// same ones. Entries stay until the State goes; past kMaxEntries, those no
// ComputePipeline holds any more are dropped.
class PipelineShelf {
public:
    explicit PipelineShelf(State &st) : st_(st) {}
    ~PipelineShelf();
    PipelineShelf(const PipelineShelf &) = delete;
    PipelineShelf &operator=(const PipelineShelf &) = delete;

    int get(const PipelineDesc &desc, std::shared_ptr<const PipelineObjects> *out);

    // Descriptions built, and served from the shelf, so far (diagnostics, tests).
    uint64_t built() const;
    uint64_t reused() const;

    static constexpr size_t kMaxEntries = 512;

private:
    using Key = std::tuple<const spirv::Shader *, unsigned, unsigned, uint32_t, std::vector<uint64_t>>;
    int build(const PipelineDesc &desc, PipelineObjects *o) const;
    void destroy(const PipelineObjects &o) const;

    State &st_;
    mutable std::mutex mutex_;
    std::map<Key, std::shared_ptr<PipelineObjects>> entries_;
    uint64_t built_ = 0, reused_ = 0;
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
    uint32_t push_size_ = 0;
    std::shared_ptr<const PipelineObjects> objects_;  // shared with the device's other users
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

}  // namespace vmaf::vk
