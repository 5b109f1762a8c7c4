// The frame engine: runs the GPU features of a context on one Vulkan device.
//
// Per frame: both pictures are copied once into a staging buffer of the frame's
// slot, one command buffer uploads them to the device planes, records every
// feature's kernels and copies the results back to the slot's readback buffer,
// and one submission signals the ring's timeline semaphore. Up to
// State::frames_in_flight() frames are in flight; a frame's results are handed to
// the features (and so to the sink) once its work is done, found on later
// submits or at the latest on flush. Nothing waits on the queue as a whole.
#pragma once

#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "feature/extractor.h"
#include "vulkan/command.h"
#include "vulkan/feature.h"
#include "vulkan/memory.h"

namespace vmaf::vk {

class State;
struct EngineDeleter;  // context/context.h

class Engine {
public:
    using FeatureList = std::vector<std::pair<const ExtractorInfo *, FeatureOptions>>;

    // Whether the GPU can run this extractor with these options.
    static bool supports(const ExtractorInfo &info, const FeatureOptions &opts);

    static int create(State *state, const FrameFormat &fmt, FeatureList features, std::unique_ptr<Engine> *out);
    static int create(State *state, const FrameFormat &fmt, FeatureList features,
                      std::unique_ptr<Engine, EngineDeleter> *out);
    ~Engine();
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    // Asynchronous. Scores of earlier frames whose work is done are written to
    // `sink` on the way. The pictures may be released as soon as this returns.
    int submit(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &sink);
    // Wait for every frame in flight, write their scores, then the features'
    // sequence scores. Later calls do nothing.
    int flush(ScoreSink &sink);

    const FrameBuffers &frame_buffers() const { return frame_; }
    unsigned frames_in_flight() const { return unsigned(slots_.size()); }

private:
    struct Entry {
        std::unique_ptr<Feature> feature;
        const char *name;
        VkDeviceSize offset;  // of its results within a slot's results
        size_t bytes;
    };
    struct Slot {
        Buffer staging;   // both pictures, laid out like FrameBuffers::planes
        Buffer readback;  // this slot's results, back in host memory
    };
    struct Pending {
        unsigned slot, index;
    };

    explicit Engine(State &st) : st_(st) {}
    int init(const FrameFormat &fmt, const FeatureList &features);
    void layout_planes(const FrameFormat &fmt);
    int check_picture(const VmafPicture &pic) const;
    void upload(const VmafPicture &ref, const VmafPicture &dist, unsigned slot);
    int record_and_submit(unsigned slot, unsigned index);
    int collect_oldest(ScoreSink &sink);
    int collect_done(ScoreSink &sink);
    int fail(int err);

    State &st_;
    FrameFormat fmt_{};
    FrameBuffers frame_;
    VkDeviceSize slot_results_size_ = 0;
    Buffer planes_, results_;
    std::vector<Slot> slots_;
    std::vector<Entry> features_;
    std::unique_ptr<FrameRing> ring_;
    std::deque<Pending> pending_;  // in submission order
    unsigned next_slot_ = 0;
    int error_ = 0;  // sticky: after a failure every call returns it
    bool flushed_ = false;
};

}  // namespace vmaf::vk
