// SPDX-License-Identifier: BSD-2-Clause-Patent
// The frame engine: runs the GPU features of a context on one Vulkan device.
//
// Per frame, one command buffer brings both pictures into the device planes
// (FrameBuffers::planes) and records every feature's kernels, which write their
// results into the slot's region of a buffer in host memory; one submission
// signals the ring's timeline semaphore. How the pictures get into the planes
// depends on where they are:
//   - host pictures: read by the GPU where they are when their storage can be
//     imported (host_import.h: the library's own allocations, on a device with
//     VK_EXT_external_memory_host), referenced until their frame is done; else
//     copied once into the slot's staging buffer, then by the GPU. On a state
//     with a transfer lane (State::transfer_lane) the GPU's copy runs there,
//     into the slot's landing buffer, in a submission of its own that the
//     frame's waits for; the frame then copies that into the planes;
//   - device pictures (device_picture.h): copied by the GPU from their buffers;
//   - imported pictures (import.h): copied by the GPU from the caller's images or
//     external memory, after the caller's semaphores, unpacked by a small kernel
//     where the stored layout is not the planes' (interleaved chroma, msb-aligned
//     samples); the submission also signals the caller's semaphores.
// Up to State::frames_in_flight() frames are in flight; a frame's results are
// handed to the features (and so to the sink) once its work is done, found on
// later submits or at the latest on flush. Nothing waits on the queue as a whole.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "feature/extractor.h"
#include "feature/twin.h"
#include "util/clock.h"
#include "util/thread_pool.h"
#include "vulkan/command.h"
#include "vulkan/memory.h"

namespace vmaf::vk {

class State;
class ComputePipeline;
struct ImportedPicture;
class HostImports;

// GPU time of the frames collected so far, from timestamps around each frame's
// command buffer (zero frames where the queue has no timestamps).
struct GpuTiming {
    uint64_t frames = 0;
    double total_ms = 0, min_ms = 0, max_ms = 0;
};

// How host pictures reached the GPU so far (Engine::submit): read where they
// are (imported) or copied by the CPU into staging memory first.
struct HostUploadStats {
    uint64_t imported = 0, copied = 0;  // pictures
    uint64_t imports = 0;               // host allocations imported (once each while they live)
    uint64_t lane_frames = 0;           // frames whose pictures came on the transfer lane
    size_t live_imports = 0;            // of them, still there
};

// The caller's side of submit() so far (pictures from the host or device
// pictures; not imports): the calls' time on its thread and, within it, the
// waits for an earlier frame's slot (with the collection of finished frames'
// scores) and the copies of pictures into staging memory; and the span from
// the first call's start to the last one's end, the rest of which is the
// caller's own time between calls.
struct HostTiming {
    uint64_t frames = 0;
    double call_ms = 0, wait_ms = 0, copy_ms = 0;
    std::chrono::steady_clock::time_point first, last;
    double span_ms() const { return frames ? ms_between(first, last) : 0; }
};

// Where the GPU time of the frames goes, in profile mode (State::set_profiling
// before the engine starts, and a queue with timestamps). A timestamp follows
// every part of a frame's command buffer, and each feature's work of a stage
// runs alone (a barrier before it), so each interval is that part's own time;
// the intervals tile the frame, from the end of the earlier frames' work to its
// last command (which is then also what gpu_timing() measures). Without profile
// mode there are no intervals and nothing of this is recorded.
struct GpuProfile {
    struct Interval {
        // "upload" (the GPU's copies of both pictures into its planes, from
        // staging or imported host memory, from device pictures or imports),
        // "host copy", "readback", or a feature's name; for a feature whose
        // stage has steps (Feature::steps()), one interval per step, named
        // "feature:step"
        std::string part;
        int stage = -1;    // the feature's stage; -1 for the engine's own parts
        bool carried = false;  // the feature's work carried from the frame before (Feature::carried_stages())
        double total_ms = 0;  // over `frames`
    };
    uint64_t frames = 0;
    double total_ms = 0;               // whole frames, over `frames`
    std::vector<Interval> intervals;   // in command-buffer order
};

class Engine {
public:
    // One configuration of an extractor. Its scores go to `sink` when set, else
    // to the sink of the call that collects them; two configurations of one
    // extractor need sinks of their own (their provided names are the same).
    // Configurations that a GPU feature says one instance can serve
    // (FeatureInfo::shares) get one instance, placed at the first of them.
    struct FeatureConfig {
        const ExtractorInfo *info;
        FeatureOptions opts;
        ScoreSink *sink = nullptr;
    };
    using FeatureList = std::vector<FeatureConfig>;

    // Whether this device can run this extractor with these options on this format.
    static bool supports(const State &st, const FrameFormat &fmt, const ExtractorInfo &info,
                         const FeatureOptions &opts);

    static int create(State *state, const FrameFormat &fmt, FeatureList features, std::unique_ptr<Engine> *out);
    ~Engine();
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    // Asynchronous. Scores of earlier frames whose work is done are written to
    // `sink` on the way. Host pictures may be released as soon as this returns
    // (the engine references those it reads in place until their frame is done);
    // device pictures (both or neither) are referenced until their frame is done.
    int submit(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &sink);
    // The same for imported pictures, which the engine keeps (and with them any
    // objects made for the import) until the frame is done.
    int submit_imported(std::unique_ptr<ImportedPicture> ref, std::unique_ptr<ImportedPicture> dist,
                        unsigned index, ScoreSink &sink);
    // Features without a GPU twin, for frames that reach the engine on the GPU
    // (imports): every frame's planes are also copied to host memory in the
    // same submission, and `fn` gets them as host pictures (valid during the
    // call only) when the frame is collected, in frame order, after the GPU
    // features' scores. Call before the first frame.
    using HostFrameFn = std::function<int(const VmafPicture &ref, const VmafPicture &dist, unsigned index)>;
    int enable_host_frames(HostFrameFn fn);
    bool host_frames_enabled() const { return bool(host_frames_); }

    // Before the first frame: let features whose collection is heavy host
    // work (Feature::collect_on_workers, ADR 0066) finish their frames on
    // `workers` threads (> 1), several frames at once, writing their scores
    // from those threads. Only configurations with a sink of their own
    // (FeatureConfig::sink) go there, and those sinks must be thread-safe
    // (the Context's are). wait_idle() and flush() wait for the workers.
    int set_collect_workers(unsigned workers);
    // How many feature instances collect on workers.
    unsigned collecting_on_workers() const;
    // Drop the collections still queued and join the workers: for an owner
    // that will not destroy the engine (a hung GPU) but destroys the sinks.
    void stop_collect_workers();

    // Wait for every frame in flight and write their scores.
    int wait_idle(ScoreSink &sink);
    // Collect the oldest frame in flight, waiting for it; *collected is false
    // when there is none.
    int collect_one(ScoreSink &sink, bool *collected);
    // Wait for every frame in flight, write their scores, then the features'
    // sequence scores. Later calls do nothing.
    int flush(ScoreSink &sink);

    const FrameFormat &format() const { return fmt_; }
    unsigned frames_in_flight() const { return unsigned(slots_.size()); }
    size_t pending() const { return pending_.size(); }
    GpuTiming gpu_timing() const { return timing_; }
    HostTiming host_timing() const { return host_timing_; }
    HostUploadStats host_uploads() const;
    // Whether host pictures are read in place where they can be (host_import.h).
    bool host_import() const { return host_imports_ != nullptr; }
    // Profile mode's intervals (empty unless the engine started in it).
    const GpuProfile &profile() const { return profile_; }
    // The feature instances on the GPU, in recording order (their ExtractorInfo
    // names): one for configurations an instance serves together
    // (FeatureInfo::shares, feature/twin.h).
    std::vector<const char *> feature_names() const;

private:
    struct Entry {
        std::unique_ptr<Feature> feature;
        std::string name;  // its features', joined by '+' (FeatureInfo::shares)
        VkDeviceSize offset;  // of its results within a slot's results
        size_t bytes;
        std::vector<ScoreSink *> sinks;  // per variant (Feature::variants()); null: the caller's
        // A carrying feature's results of its own stages (Feature::carried_results_at()):
        // those of the last frame read back, held for the frame that carries its work.
        std::vector<std::byte> held, merged;
        bool on_workers = false;  // collected on collect_pool_ (Feature::collect_on_workers)
    };
    struct Slot {
        // Both pictures, laid out like FrameBuffers::planes: made by the first
        // host picture to use the slot (submit()); device pictures and imports
        // never need it.
        Buffer staging;
        Buffer host_planes;  // both pictures back in host memory (enable_host_frames)
        Buffer landing;   // both pictures as the transfer lane brings them (device memory)
        // What the frame in this slot reads until it is done.
        std::vector<VmafPicture> pictures;
        std::unique_ptr<ImportedPicture> imported[2];
    };
    struct Pending {
        unsigned slot, index;
        bool carries = false;     // holds carried work (Feature::carried_stages()) for frame `carried`
        unsigned carried = 0;
        bool carry_only = false;  // nothing else: the carried work of the last frame
    };
    // Where the raw copy of one stored plane goes before it is unpacked.
    struct RawRegion {
        VkDeviceSize offset = 0;
        uint32_t stride = 0;
    };
    using Loader = std::function<int(VkCommandBuffer)>;

    explicit Engine(State &st);  // out of line: members of incomplete types
    int init(const FrameFormat &fmt, const FeatureList &features);
    void layout_planes(const FrameFormat &fmt);
    int check_picture(const VmafPicture &pic) const;
    int check_imported(const ImportedPicture &pic) const;
    int init_unpack();
    void accept_carries();
    int init_timestamps();
    static unsigned upload_threads(const FrameFormat &fmt);
    // Copy the pictures marked in `copy` into the slot's staging buffer.
    void upload(const VmafPicture &ref, const VmafPicture &dist, const bool copy[2], unsigned slot);
    int begin_frame(ScoreSink &sink, unsigned *slot);
    // submit() and submit_imported() without their timing.
    int submit_frame(const VmafPicture &ref, const VmafPicture &dist, unsigned index, ScoreSink &sink);
    int submit_imported_frame(std::unique_ptr<ImportedPicture> ref, std::unique_ptr<ImportedPicture> dist,
                              unsigned index, ScoreSink &sink);
    // Counts a submission that took the host from t0 to t1 (host_timing()).
    void note_call(std::chrono::steady_clock::time_point t0, std::chrono::steady_clock::time_point t1);
    // Record and submit the frame (without `load`: the carried work alone,
    // submit_carry()), then count it as pending.
    int record_and_submit(unsigned slot, unsigned index, const Loader &load, std::span<const SemaphoreOp> waits,
                          std::span<const SemaphoreOp> signals);
    // One feature's work of one stage (profile mode: alone, then a timestamp
    // at *point unless null).
    int record_feature(Entry &e, const Recording &rec, unsigned *point);
    // Everything before it in the queue, done and visible to everything after.
    void full_barrier(VkCommandBuffer cmd) const;
    // The carried work of the last frame submitted, if still held, in a
    // submission of its own.
    int submit_carry(ScoreSink &sink);
    void record_device_copies(VkCommandBuffer cmd, const VmafPicture *const pics[2]);
    // The planes of `pic`, rows of `src` from offset[p], into picture k's planes.
    void record_plane_copies(VkCommandBuffer cmd, VkBuffer src, const VkDeviceSize offset[3], const VmafPicture &pic,
                             unsigned k, VkBuffer dst);
    // Host pictures into `dst` (laid out as the planes): each from the slot's
    // staging buffer where it was copied there, else from where it is imported.
    struct HostLoad {
        const VmafPicture *pics[2];
        bool staged[2];
        VkBuffer buffer[2];          // imported, where not staged
        VkDeviceSize offset[2][3];
    };
    void record_host_copies(VkCommandBuffer cmd, unsigned slot, const HostLoad &h, VkBuffer dst);
    // The same on the transfer lane into the slot's landing buffer; `wait` is
    // what the frame's submission waits for before it copies that into the planes.
    int submit_lane(unsigned slot, const HostLoad &h, SemaphoreOp *wait);
    // The landing buffer's ownership, from the lane's queue family to the
    // compute queue's (a no-op where they are one family).
    void record_landing_handover(VkCommandBuffer cmd, unsigned slot, bool release);
    int record_imported(VkCommandBuffer cmd, unsigned slot, ImportedPicture *const pics[2]);
    void record_sampled(VkCommandBuffer cmd, unsigned slot, unsigned k, const ImportedPicture &pic);
    void record_image_barriers(VkCommandBuffer cmd, ImportedPicture *const pics[2], bool before);
    void release_slot(Slot &s);
    void read_timestamps(unsigned slot);
    void mark(VkCommandBuffer cmd, unsigned slot, unsigned *point);
    int collect_oldest(ScoreSink &sink);
    int collect_done(ScoreSink &sink);
    // Hand one feature's results of frame `index` to the workers.
    void collect_later(Entry &e, std::span<const std::byte> results, unsigned index);
    // The first failure of a worker's collection, then every call returns it.
    int worker_error();
    int fail(int err);

    State &st_;
    FrameFormat fmt_{};
    FrameBuffers frame_;
    VkDeviceSize slot_results_size_ = 0;
    Buffer planes_, results_;
    std::vector<Slot> slots_;
    std::vector<Entry> features_;
    std::unique_ptr<FrameRing> ring_;
    std::unique_ptr<FrameRing> lane_ring_;  // host uploads on the transfer lane (made on the first)
    std::deque<Pending> pending_;  // in submission order
    unsigned next_slot_ = 0;
    unsigned stages_ = 0;          // a frame's: the most of any feature (Feature::stages())
    unsigned carried_stages_ = 0;  // the most of any feature (Feature::carried_stages())
    bool carry_held_ = false;      // the last frame submitted left carried work, for frame carry_from_
    unsigned carry_from_ = 0;
    int error_ = 0;  // sticky: after a failure every call returns it
    HostFrameFn host_frames_;
    std::unique_ptr<ThreadPool> upload_pool_;  // helps upload() copy host pictures; null: one thread
    std::unique_ptr<ThreadPool> collect_pool_;  // set_collect_workers(); null: every feature collects here
    std::atomic<int> collect_error_{0};         // the first failure on collect_pool_
    std::atomic<bool> collect_cancelled_{false};  // the engine ends: queued collections do nothing
    std::unique_ptr<HostImports> host_imports_;  // null: host pictures are always copied
    HostUploadStats uploads_;
    bool flushed_ = false;
    bool import_logged_ = false;  // how imports are read, said once

    // Imports: raw plane copies and the kernel that unpacks them (made on the
    // first imported frame).
    Buffer raw_;
    RawRegion raw_region_[2][3];
    std::unique_ptr<ComputePipeline> unpack_;
    VkDescriptorSet unpack_set_ = VK_NULL_HANDLE;
    // Sampled imports: one set per slot, picture and plane, pointed at the
    // frame's views when it is recorded.
    std::unique_ptr<ComputePipeline> sample_;
    std::vector<VkDescriptorSet> sample_sets_;

    VkQueryPool timestamps_ = VK_NULL_HANDLE;
    unsigned points_ = 2;  // timestamps per frame: 2, or one per interval boundary in profile mode
    unsigned slot_queries_ = 2;  // queries per slot in the pool (room for the host copy's point)
    GpuTiming timing_;
    HostTiming host_timing_;
    GpuProfile profile_;  // intervals only in profile mode
};

}  // namespace vmaf::vk
