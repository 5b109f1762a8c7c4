// SPDX-License-Identifier: BSD-2-Clause-Patent
// Compute pipelines from embedded SPIR-V.
//
// Every kernel of the library has the same simple interface: storage buffers at
// bindings 0..n-1 of set 0, then optional sampled images (read with texelFetch;
// the pipeline holds their nearest-filter sampler), optional push constants,
// optional specialization constants (32-bit). A ComputePipeline owns its shader module, layouts, the
// pipeline and a small descriptor pool for the sets its feature needs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
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

// The immutable device objects of one PipelineDesc. The pipeline itself may
// be compiled later (a PipelineDeferral's): `pipeline` is set once it is.
struct PipelineObjects {
    VkShaderModule module = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    std::atomic<VkPipeline> pipeline{VK_NULL_HANDLE};

    // A deferred pipeline is compiled by the first thread to call compile()
    // (a deferral's worker, or one that needs it now); the others wait for it.
    // 0, or the error of that compiling.
    int compile() const;
    // The pipeline, compiled first if it was not yet; VK_NULL_HANDLE if that failed.
    VkPipeline ready() const;

    std::function<int()> deferred;  // set before the objects are shared; empty when compiled at once
    mutable std::once_flag compiled;
    mutable int compile_error = 0;
};

class PipelineShelf;

// While one lives on a thread, the pipelines that thread asks its shelf for
// are compiled by a few worker threads (and by wait() itself), so that a
// start's other work (buffers, descriptor sets, the ring) goes on beside the
// driver's compiling, and the kernels compile side by side. wait() (or the
// destructor) returns when every pipeline the thread asked for is compiled:
// their first error, or 0. A dispatch before that compiles its own pipeline
// first, if no worker has.
class PipelineDeferral {
public:
    explicit PipelineDeferral(PipelineShelf &shelf);
    ~PipelineDeferral();
    PipelineDeferral(const PipelineDeferral &) = delete;
    PipelineDeferral &operator=(const PipelineDeferral &) = delete;

    int wait();

    // Worker threads at most (besides the thread that waits).
    static constexpr unsigned kMaxWorkers = 4;

private:
    friend class PipelineShelf;
    void add(std::shared_ptr<const PipelineObjects> o, bool queue);
    void work();

    PipelineShelf &shelf_;
    PipelineDeferral *outer_;  // the thread's earlier deferral, restored when this one goes
    const unsigned max_workers_;  // kMaxWorkers, or the cores where fewer
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::shared_ptr<const PipelineObjects>> queue_;  // for the workers
    std::vector<std::shared_ptr<const PipelineObjects>> asked_;  // everything waited for
    std::vector<std::thread> workers_;
    bool closing_ = false;
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

    // The pipeline of `desc`, built now, or (on a thread with a deferral for
    // this shelf) being built by that deferral.
    int get(const PipelineDesc &desc, std::shared_ptr<const PipelineObjects> *out);

    // Descriptions built, and served from the shelf, so far (diagnostics, tests).
    uint64_t built() const;
    uint64_t reused() const;

    static constexpr size_t kMaxEntries = 512;

private:
    using Key = std::tuple<const spirv::Shader *, unsigned, unsigned, uint32_t, std::vector<uint64_t>>;
    int build_layouts(const PipelineDesc &desc, PipelineObjects *o) const;
    int build_pipeline(const spirv::Shader *shader, std::span<const SpecConstant> spec, PipelineObjects *o) const;
    void log_statistics(VkPipeline pipeline, const char *name, std::span<const SpecConstant> spec) const;
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
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

}  // namespace vmaf::vk
