// SPDX-License-Identifier: BSD-2-Clause-Patent
// GpuFrames: everything a Context does on the GPU, behind one interface
// (ADR 0079). It owns the context's Vulkan state (imported, or the process's
// shared device of VMAF_BACKEND), the frame engine and the sink of its calls,
// and the frame I/O of <libvmaf/libvmaf_vulkan.h>: picture pools in device or
// host memory and the frame being imported.
//
// context/gpu_frames.cpp implements it on Vulkan; a library built without
// Vulkan links context/gpu_frames_stub.cpp instead, where there is no GPU and
// every Vulkan call fails cleanly. The Context calls only this interface, and
// names no Vulkan type but the opaque pointers below.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_vulkan.h"
#include "picture/format.h"
#include "picture/pool.h"

// The import descriptions of <libvmaf/libvmaf_vulkan.h>, declared there only
// when the Vulkan headers are found.
struct VmafVulkanImage;
struct VmafVulkanExternalPicture;

namespace vmaf {

namespace vk {
class State;
class Engine;
}  // namespace vk

struct RegisteredFeature;

// One side of a frame handed in on the GPU, as the caller described it.
struct GpuImport {
    enum class Kind { Image, External, VaSurface };
    Kind kind = Kind::Image;
    const VmafVulkanImage *image = nullptr;               // Kind::Image
    const VmafVulkanExternalPicture *external = nullptr;  // Kind::External
    void *va_display = nullptr;                           // Kind::VaSurface
    unsigned va_surface = 0;
};

class GpuFrames {
public:
    // The CPU features' part of a frame the GPU holds, on host copies of its
    // pictures (it takes over the references to both).
    using HostFrame = std::function<int(VmafPicture *ref, VmafPicture *dist, unsigned index)>;
    // The context's own checks of an imported side, once its picture is made
    // (flushed, pictures read before, the first frame's format); it starts the
    // context on the first one.
    using AdmitImport = std::function<int(const FrameFormat &fmt)>;

    // The Vulkan implementation, or the stub of a build without Vulkan.
    static std::unique_ptr<GpuFrames> create(const VmafConfiguration &cfg);
    virtual ~GpuFrames() = default;

    // The device. import_state: the caller's state (vmaf_vulkan_import_state),
    // which replaces the shared one; use_shared_state: the process's shared
    // device (its reference is taken over, and dropped on failure).
    virtual int import_state(vk::State *state, bool started) = 0;
    virtual int use_shared_state(vk::State *state, bool started) = 0;
    virtual vk::State *state() const = 0;
    virtual bool shared() const = 0;  // the state is VMAF_BACKEND's
    // The engine once started, else null.
    virtual const vk::Engine *engine() const = 0;

    // The first frame: puts every feature the device runs on the GPU (setting
    // RegisteredFeature::on_gpu) and starts the engine when one does, or when
    // the frames arrive on the GPU (`gpu_frames`); then features without a GPU
    // twin get host copies of each frame through `host_frame`.
    virtual int start(const FrameFormat &fmt, std::vector<std::unique_ptr<RegisteredFeature>> &features,
                      bool gpu_frames, HostFrame host_frame) = 0;
    // Whether a picture lives in device memory (a device pool's).
    virtual bool is_device_picture(const VmafPicture &pic) const = 0;
    // A frame read with vmaf_read_pictures, handed to the engine when there is
    // one. `*taken`: the engine holds the pictures and runs the CPU features
    // from host copies; the caller only drops its references.
    virtual int submit(const VmafPicture &ref, const VmafPicture &dist, unsigned index, bool *taken) = 0;
    // Collects the oldest frame in flight: `*pending` false when there is none.
    virtual int collect_oldest(bool *pending) = 0;
    // The end of the frames: drops a frame imported on one side only and
    // flushes the engine (whose last frames may still feed CPU features).
    virtual int flush() = 0;
    // At the context's end, in two steps: the engine (before the context drops
    // its pictures), then the frame I/O and the state (after).
    virtual void stop_engine() = 0;
    virtual void close() = 0;

    // The frame I/O of <libvmaf/libvmaf_vulkan.h>.
    virtual int preallocate(const VmafVulkanPictureConfiguration &cfg, bool started) = 0;
    // The host pool of a HOST preallocation, which the context fetches from
    // itself; else null.
    virtual PicturePool *host_pool() = 0;
    // A picture of the other preallocations; `frame_threads`: whether other
    // threads can still release a held one.
    virtual int fetch(VmafPicture *pic, bool frame_threads) = 0;
    // Makes the picture of one side, lets the context admit it, and keeps it
    // for vmaf_vulkan_read_imported_pictures.
    virtual int import(unsigned side, const GpuImport &src, unsigned index, const AdmitImport &admit) = 0;
    // The context's check of a side about to be kept (called from `admit`):
    // one frame is imported at a time, each side once.
    virtual int check_import(unsigned side, unsigned index) const = 0;
    virtual int read_imported(unsigned index, bool flushed) = 0;
    virtual int wait_compute(bool flushed) = 0;
};

}  // namespace vmaf
