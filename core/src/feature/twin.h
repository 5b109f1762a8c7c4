// SPDX-License-Identifier: BSD-2-Clause-Patent
// The interface of a GPU feature: the Vulkan twin of one CPU extractor.
// It lives in feature/, below the engine that drives it (gpu/), so that the
// twins and the engine both include it downward (ADR 0077).
//
// A GPU feature lives in its feature folder (core/src/feature/<name>/<name>_vk.cpp),
// defines a `const vk::FeatureInfo`, which its header names as the twin of its
// extractor (feature/registry.cpp). The
// Engine (gpu/engine.h) owns the device buffers, the per-frame command buffer,
// the upload of both pictures and the readback of results; a feature only records
// its kernels and turns its results into scores.
//
// Life of a feature inside an Engine:
//
//   create(opts)                         once, from FeatureInfo::create
//   init(state, fmt, &result_bytes)      once: pipelines, scratch buffers; say how
//                                        many bytes of results one frame produces
//   bind(frame)                          once: FrameBuffers now exist (descriptor sets)
//   record(rec)       per frame          record kernels into rec.cmd, once per
//                                        stage (rec.stage < stages())
//   collect_variant(results, index, v, sink)
//                                        per frame, in frame order, once that frame's
//                                        GPU work is done: results -> scores, for
//                                        each variant v < variants() in order
//   flush_variant(v, sink)               once at the end, per variant: sequence-wide
//                                        scores
//
// Variants: one instance may serve several configurations. A feature whose
// FeatureInfo has `shares` and `create_shared` says which configurations one
// instance can compute together (e.g. VIF's differ only in the gain limit,
// which enters at the last step of each pixel; float_ssim at full size is
// float_ms_ssim's first scale); the Engine then creates one instance for up
// to `max_shared` of them, recording, timing and naming it once
// (Engine::feature_names(), the profile's intervals: the names of the
// features it serves, joined by '+'). Its variants() are those
// configurations in the order given to create_shared, and
// collect_variant() and flush_variant() are called once per variant with that
// configuration's own sink. A feature that does not opt in has one variant, and
// the default collect_variant() and flush_variant() call its collect() and
// flush().
//
// Rules the Engine guarantees, so features need no synchronization of their own
// across frames:
//   - The planes of the frame being recorded are in FrameBuffers::planes, visible
//     to compute shaders, when record() runs its first command.
//   - Frames execute on the GPU in submission order: the Engine puts a full
//     compute/transfer barrier at the start of every frame. A temporal feature may
//     keep state in its own device buffers from one frame to the next (e.g. the
//     previous frame's blurred reference, ping-ponged by index parity).
//   - Whatever record() writes to its result region of FrameBuffers::results
//     (at rec.result_offset, result_bytes long) is handed to collect() byte for
//     byte. The buffer is in host memory (ADR 0051): kernels only write
//     it, never read it back or use atomics on it.
//   - collect() is called in frame order, on the thread that calls submit()/flush()
//     (unless the feature collects on workers, below).
//   - A frame is recorded in stages: stage 0 of every feature, a compute barrier,
//     stage 1 of every feature that has one, and so on. A feature whose dispatches
//     depend on each other (VIF's and ADM's scales) puts each step in a stage of
//     its own instead of adding barriers: the features' independent chains then
//     share the GPU and every barrier (a drain of the whole queue) serves all.
//   - Carried work (Feature::carried_stages()): a feature may end its chain
//     in the next frame's command buffer, so that thin steps (a few
//     workgroups, bound by their latency) run beside that frame's stages
//     instead of adding their latency to every frame. Its carried stage s is
//     recorded (Recording::carried) at the start of the next frame's stage s,
//     behind the same barriers as that stage: everything the frame it is for
//     wrote is complete and visible there. The carried work writes its
//     results to the region of the frame that carries it, and collect() gets
//     them under the index of the frame they are for (no call for the first
//     frame, which carries nothing). After the last frame (wait_idle(),
//     flush()) the Engine submits the carried stages alone. Buffers that a
//     frame's stages write and its carried work reads need two copies,
//     alternating from frame to frame. The first carried_results_at() bytes
//     of the region collect() gets are those the frame's own stages wrote
//     (in its own region); the rest, the carried work's.
//   - Carrying on offer (Feature::carry_offer()): a feature may offer to
//     carry its last stages where that shortens the frame. The Engine asks
//     every feature after init() and, when the frame then has fewer stages,
//     calls carry() on those that offer (before bind()). In a set whose
//     longest chain is another feature's, carrying would only add work to
//     the next frame's busiest stages (ADR 0050).
// What features must do themselves:
//   - any other barrier between their own dependent commands within a stage
//     (compute_barrier() in vulkan/command.h);
//   - write every byte of their result region they will read in collect();
//   - never wait on the GPU; never submit.
// Results are raw: integer sums (exact, e.g. uint64), or per-workgroup partials the
// host reduces in collect(). Floating-point finishing (logs, ratios, model inputs)
// happens in collect() with the same code the CPU extractor uses (<name>_tables.h),
// so both backends print the same numbers.
//
// Adding a GPU feature touches its folder only (feature/psnr/ is the worked
// example; docs/architecture.md lists the steps):
//   1. <name>_<kernel>.comp beside <name>_vk.cpp, named in the folder's
//      meson.build `vk_kernels` entry; it is embedded as vk::spirv::<name>_<kernel>
//      (spirv.h). Kernels may use what State requires of every device: Vulkan
//      1.2, int64/int16 arithmetic, 8/16-bit storage buffers. Table constants
//      come from <name>_tables.h, as specialization constants or a generated
//      header (<name>_tables_glsl.cpp -> <name>_tables.glsl); never retype numbers.
//   2. <name>_vk.cpp: a Feature subclass (pipelines via vulkan/pipeline.h,
//      scratch buffers via State::allocator()) and
//      `const vk::FeatureInfo k<Name>Feature = {"<name>", supports, create};`,
//      declared in <name>.h as the twin (k<Name>Twin) that feature/registry.cpp
//      names beside the extractor; added to the folder's meson.build under
//      `if vulkan_enabled`.
//   3. tests/test_<name>_vk.cpp: golden pairs through the Engine within the CPU
//      test's tolerance, and the CPU extractor as oracle on synthetic input, with
//      the validation layer on (tests/support/vulkan.h).
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "feature/extractor.h"
#include "vulkan/vk.h"

namespace vmaf::vk {

class State;

// Where one picture plane lives in FrameBuffers::planes. Samples are the
// picture's own: uint8 for 8-bit input, uint16 (little-endian) above.
struct PlaneRegion {
    VkDeviceSize offset = 0;  // bytes from the buffer start; a multiple of kBindAlign
    uint32_t stride = 0;      // bytes from row to row; a multiple of kRowAlign
    uint32_t w = 0, h = 0;    // samples
};

// A buffer region that a dispatch binds on its own (a picture plane, a
// feature's scratch region) starts at a multiple of this: the largest
// minStorageBufferOffsetAlignment Vulkan allows. Rows of the planes hold whole
// 16-byte vectors (uvec4 loads).
inline constexpr VkDeviceSize kBindAlign = 256;
inline constexpr uint32_t kRowAlign = 64;
static_assert(kBindAlign % 16 == 0 && kRowAlign % 16 == 0, "import_sample.comp writes 16-byte blocks");

// The i-th value of type T in a feature's results (which need not be aligned
// for T).
template <typename T>
T result_at(std::span<const std::byte> results, size_t i)
{
    T v;
    std::memcpy(&v, results.data() + i * sizeof(T), sizeof(T));
    return v;
}

struct FrameBuffers {
    // Device-local. Both pictures of the frame being recorded: ref[] then dist[].
    // Bytes between a row's last sample and the next row are unspecified.
    VkBuffer planes = VK_NULL_HANDLE;
    VkDeviceSize planes_size = 0;
    PlaneRegion ref[3], dist[3];
    unsigned n_planes = 0;         // 1 for 4:0:0, else 3
    unsigned bpc = 8;
    unsigned bytes_per_sample = 1;
    // In host memory (ADR 0051). Every slot's results of every feature; a
    // feature writes only its own region of the slot being recorded
    // (Recording::result_offset), with plain stores.
    VkBuffer results = VK_NULL_HANDLE;
    VkDeviceSize results_size = 0;
};

// One frame being recorded.
struct Recording {
    VkCommandBuffer cmd;
    unsigned slot;               // frame-in-flight slot, [0, frames in flight)
    unsigned index;              // the frame's index
    VkDeviceSize result_offset;  // this feature's region for this frame in FrameBuffers::results
    unsigned stage = 0;          // which of the feature's stages() to record
    bool carried = false;        // the stage is of the work carried from the frame before (index)
    // Profile mode only (empty otherwise): a feature whose stage has steps()
    // calls it after each step but the last, so that each is timed alone.
    std::function<void()> step_done;
};

class Feature {
public:
    virtual ~Feature() = default;
    // Build pipelines and persistent buffers for this format; set *result_bytes
    // to the size of one frame's results (0 when it has none). Return -ENOTSUP for
    // a format it cannot handle.
    virtual int init(State &st, const FrameFormat &fmt, size_t *result_bytes) = 0;
    // The Engine's buffers exist and never change from now on.
    virtual int bind(const FrameBuffers &frame) = 0;
    // How many stages record() has (see above); constant after init().
    virtual unsigned stages() const { return 1; }
    // The names of a stage's steps, in recording order, that profile mode
    // times one by one (Recording::step_done); none: the stage is one
    // interval. Constant after init().
    virtual std::vector<std::string> steps(unsigned /*stage*/) const { return {}; }
    // How many stages of carried work record() has (see "Carried work"
    // above), at most stages(); constant after init().
    virtual unsigned carried_stages() const { return 0; }
    // Carrying on offer (see above): how many of its last stages() it can
    // carry (0: none). carry() makes it do so, after init() and before
    // bind(); from then on stages() and carried_stages() count them as
    // carried.
    virtual unsigned carry_offer() const { return 0; }
    virtual void carry() {}
    // Of the region collect() gets, the bytes before carried_results_at()
    // come from the frame's own stages, the rest from its carried work.
    virtual size_t carried_results_at() const { return 0; }
    // Record this frame's kernels of stage rec.stage.
    virtual int record(const Recording &rec) = 0;
    // This frame's results (result_bytes, in host memory) -> scores, under the
    // provided names of the CPU extractor.
    virtual int collect(std::span<const std::byte> results, unsigned index, ScoreSink &sink) = 0;
    // After the last frame: scores of the whole sequence.
    virtual int flush(ScoreSink &) { return 0; }

    // How many option sets this instance serves (see "Variants" above);
    // constant after create.
    virtual unsigned variants() const { return 1; }
    // collect() and flush() of variant v < variants(): what the Engine calls.
    // The features that do not opt in keep these defaults.
    virtual int collect_variant(std::span<const std::byte> results, unsigned index, unsigned v, ScoreSink &sink)
    {
        return v == 0 ? collect(results, index, sink) : -EINVAL;
    }
    virtual int flush_variant(unsigned v, ScoreSink &sink) { return v == 0 ? flush(sink) : -EINVAL; }

    // Collecting on workers (ADR 0066): a feature whose collect() is heavy
    // host work (SpEED's fits) may have the Engine finish its frames on
    // worker threads, several frames at once and in any order, so that one
    // collecting thread does not hold back the GPU. The Engine asks once,
    // after bind(), when it has workers (Engine::set_collect_workers). A
    // feature that returns true keeps what its collect needs per worker
    // ([0, workers)); from then on the Engine calls collect_on() instead of
    // collect_variant(), on worker `worker`'s thread, with the frame's
    // results copied. It may read what record() set for that frame before
    // (the frame's job is queued after its recording) and must change
    // nothing shared but its own worker's state.
    virtual bool collect_on_workers(unsigned workers)
    {
        (void)workers;
        return false;
    }
    virtual int collect_on(unsigned worker, std::span<const std::byte> results, unsigned index, unsigned v,
                           ScoreSink &sink)
    {
        (void)worker;
        return collect_variant(results, index, v, sink);
    }
};

struct SharedConfig;

struct FeatureInfo {
    const char *name;  // the ExtractorInfo name it twins ("psnr")
    // Whether these (already validated) options can run on this device for this
    // format (e.g. a float feature needs State::float64()); the CPU extractor
    // runs the rest.
    bool (*supports)(const State &st, const FrameFormat &fmt, const FeatureOptions &opts);
    std::unique_ptr<Feature> (*create)(const FeatureOptions &opts);
    // Optional (see "Variants" above): whether one instance of this feature
    // can compute both configurations (supported ones, of this format; `b`
    // may be of another feature, e.g. float_ssim at full size beside
    // float_ms_ssim, whose first scale is the same computation). Then
    // create_shared makes one instance for 2 to max_shared configurations
    // that all share, its variants in their order.
    bool (*shares)(const SharedConfig &a, const SharedConfig &b) = nullptr;
    std::unique_ptr<Feature> (*create_shared)(std::span<const SharedConfig> configs) = nullptr;
    unsigned max_shared = 1;
};

// One configuration of a shared instance: its feature and options.
struct SharedConfig {
    const FeatureInfo *info;
    const FeatureOptions *opts;
};

}  // namespace vmaf::vk
