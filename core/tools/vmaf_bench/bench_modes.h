// SPDX-License-Identifier: BSD-2-Clause-Patent
// The four ways vmaf_bench hands frames to the library (one per --mode), and the
// one number the public API does not give: the engine's GPU time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libvmaf/libvmaf.h"

namespace vmaf::bench {

class FrameCycle;

enum class Mode { Cpu, VulkanHost, VulkanDevicePool, VulkanImport };

const char *mode_name(Mode m);
// False for a name that is not a mode.
bool parse_mode(const char *name, Mode *out);

// What the Vulkan modes take from the command line.
struct DeviceOptions {
    std::string device;                  // index or name substring; empty: automatic
    unsigned in_flight = 0;              // frames queued on the GPU; 0: the library's default
    std::string import_layout = "auto";  // vulkan-import: auto, 3plane or r8
    std::string import_queue = "compute";  // vulkan-import: compute or graphics
    bool validation = false;
};

// How one mode hands frames to the library. attach() runs before the first frame,
// feed() once per frame, drain() between the warm-up and the timed frames.
class Feeder {
public:
    virtual ~Feeder() = default;
    virtual int attach(VmafContext *vmaf, std::string *err) = 0;
    virtual int feed(VmafContext *vmaf, unsigned index, std::string *err) = 0;
    virtual int drain(VmafContext *) { return 0; }
    virtual std::string device() const { return "cpu"; }
    virtual unsigned validation_messages(VmafContext *) const { return 0; }
};

// Null with a message when this build cannot run `mode` (no Vulkan).
std::unique_ptr<Feeder> make_feeder(Mode mode, const DeviceOptions &o, const FrameCycle &frames, std::string *err);

// GPU time of the frames collected so far, from the engine's timestamps (all
// zero before the engine starts, without timestamps, or without Vulkan).
struct GpuTime {
    uint64_t frames = 0;
    double total_ms = 0, min_ms = 0, max_ms = 0;
};
GpuTime gpu_time(VmafContext *vmaf);

// Profile mode on the context's Vulkan state (after Feeder::attach, before the
// first frame): false without a state.
bool enable_profile(VmafContext *vmaf);

// The engine's profile so far (vmaf_vulkan_profile): intervals in command-buffer
// order, each a feature's stage (stage >= 0) or an engine part (stage -1).
struct GpuProfile {
    struct Part {
        std::string name;
        int stage = -1;
        bool carried = false;  // carried from the frame before (feature/twin.h)
        double total_ms = 0;
    };
    uint64_t frames = 0;
    double total_ms = 0;
    std::vector<Part> parts;
};
GpuProfile gpu_profile(VmafContext *vmaf);

// Where the features ran: whether a GPU engine started and whether the CPU
// features got host copies of GPU frames (imports) rather than host pictures.
struct Placement {
    bool engine = false;  // a GPU engine started
    bool host_copies = false;
};
Placement placement(VmafContext *vmaf);
// Whether the GPU engine runs the extractor (by its registry name).
bool on_gpu(VmafContext *vmaf, const std::string &extractor);

// Device memory the context's Vulkan state holds (0 without one).
uint64_t gpu_memory_bytes(VmafContext *vmaf);

std::string errno_text(int err);

}  // namespace vmaf::bench
