// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "bench_modes.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "bench_frames.h"
#include "libvmaf/libvmaf_introspect.h"
#include "libvmaf/libvmaf_vulkan.h"

#if VMAF_BENCH_HAVE_VULKAN
#include "bench_import.h"
#endif

namespace vmaf::bench {

namespace {

constexpr struct {
    Mode mode;
    const char *name;
} kModes[] = {
    {Mode::Cpu, "cpu"},
    {Mode::VulkanHost, "vulkan-host"},
    {Mode::VulkanDevicePool, "vulkan-device-pool"},
    {Mode::VulkanImport, "vulkan-import"},
};

}  // namespace

const char *mode_name(Mode m)
{
    for (const auto &k : kModes)
        if (k.mode == m) return k.name;
    return "?";
}

bool parse_mode(const char *name, Mode *out)
{
    for (const auto &k : kModes) {
        if (!std::strcmp(k.name, name)) {
            *out = k.mode;
            return true;
        }
    }
    return false;
}

std::string errno_text(int err) { return std::strerror(err < 0 ? -err : err); }

namespace {

// Host pictures by reference: the library gets another reference to a frame of
// the cycle, as it would get a decoder's frame, with no copy on our side.
int feed_host(VmafContext *vmaf, const FrameCycle &frames, unsigned index, std::string *err)
{
    VmafPicture ref{}, dist{};
    if (int e = vmaf_picture_ref(&ref, &frames.ref(index))) {
        *err = "vmaf_picture_ref: " + errno_text(e);
        return e;
    }
    if (int e = vmaf_picture_ref(&dist, &frames.dist(index))) {
        vmaf_picture_unref(&ref);
        *err = "vmaf_picture_ref: " + errno_text(e);
        return e;
    }
    if (int e = vmaf_read_pictures(vmaf, &ref, &dist, index)) {
        *err = "vmaf_read_pictures: " + errno_text(e);
        return e;
    }
    return 0;
}

class CpuFeeder final : public Feeder {
public:
    explicit CpuFeeder(const FrameCycle &frames) : frames_(frames) {}
    int attach(VmafContext *, std::string *) override { return 0; }
    int feed(VmafContext *vmaf, unsigned index, std::string *err) override
    {
        return feed_host(vmaf, frames_, index, err);
    }

private:
    const FrameCycle &frames_;
};

#if VMAF_BENCH_HAVE_VULKAN
// The context's GPU figures (all zero without Vulkan or a state).
VmafVulkanContextStats stats_of(VmafContext *vmaf)
{
    VmafVulkanContextStats s{};
    s.size = sizeof s;
    if (vmaf_vulkan_context_stats(vmaf, &s)) {
        s = {};
        s.size = sizeof s;
    }
    return s;
}

// The two modes on a state the library creates (vmaf_vulkan_state_init).
class OwnStateFeeder : public Feeder {
public:
    OwnStateFeeder(const FrameCycle &frames, const DeviceOptions &o) : frames_(frames), o_(o) {}
    ~OwnStateFeeder() override
    {
        if (state_) vmaf_vulkan_state_free(&state_);
    }
    int attach(VmafContext *vmaf, std::string *err) override
    {
        VmafVulkanConfiguration cfg{};
        cfg.device_index = VMAF_VULKAN_DEVICE_AUTO;
        char *end = nullptr;
        const long index = o_.device.empty() ? -1 : std::strtol(o_.device.c_str(), &end, 10);
        if (!o_.device.empty() && *end == '\0') cfg.device_index = int(index);
        else if (!o_.device.empty()) cfg.device_name = o_.device.c_str();
        cfg.enable_validation = o_.validation;
        cfg.frames_in_flight = o_.in_flight;
        if (int e = vmaf_vulkan_state_init(&state_, cfg)) {
            *err = e == -ENODEV ? "no usable Vulkan device (no loader, no driver, or none with what the kernels need)"
                                : "vmaf_vulkan_state_init: " + errno_text(e);
            return e;
        }
        if (int e = vmaf_vulkan_import_state(vmaf, state_)) {
            *err = "vmaf_vulkan_import_state: " + errno_text(e);
            return e;
        }
        VmafVulkanDeviceInfo info{};
        device_ = vmaf_vulkan_state_device_info(state_, &info) ? "?" : info.name;
        return 0;
    }
    int drain(VmafContext *vmaf) override { return vmaf_vulkan_wait_compute(vmaf); }
    std::string device() const override { return device_; }
    unsigned validation_messages(VmafContext *vmaf) const override
    {
        return stats_of(vmaf).validation_messages;
    }

protected:
    const FrameCycle &frames_;
    const DeviceOptions &o_;
    VmafVulkanState *state_ = nullptr;
    std::string device_;
};

class HostFeeder final : public OwnStateFeeder {
public:
    using OwnStateFeeder::OwnStateFeeder;
    int feed(VmafContext *vmaf, unsigned index, std::string *err) override
    {
        return feed_host(vmaf, frames_, index, err);
    }
};

// Pictures fetched from a pool in device-visible memory and filled by the host,
// as a decoder writing straight into them would.
class DevicePoolFeeder final : public OwnStateFeeder {
public:
    using OwnStateFeeder::OwnStateFeeder;
    int attach(VmafContext *vmaf, std::string *err) override
    {
        if (int e = OwnStateFeeder::attach(vmaf, err)) return e;
        const VmafPicture &like = frames_.ref(0);
        VmafVulkanPictureConfiguration cfg{};
        cfg.pic_params.w = like.w[0];
        cfg.pic_params.h = like.h[0];
        cfg.pic_params.bpc = like.bpc;
        cfg.pic_params.pix_fmt = like.pix_fmt;
        cfg.pic_prealloc_method = VMAF_VULKAN_PICTURE_PREALLOCATION_METHOD_DEVICE;
        if (int e = vmaf_vulkan_preallocate_pictures(vmaf, cfg)) {
            *err = "vmaf_vulkan_preallocate_pictures: " + errno_text(e);
            return e;
        }
        return 0;
    }
    int feed(VmafContext *vmaf, unsigned index, std::string *err) override
    {
        VmafPicture ref{}, dist{};
        if (int e = vmaf_vulkan_picture_fetch(vmaf, &ref)) {
            *err = "vmaf_vulkan_picture_fetch: " + errno_text(e);
            return e;
        }
        if (int e = vmaf_vulkan_picture_fetch(vmaf, &dist)) {
            vmaf_picture_unref(&ref);
            *err = "vmaf_vulkan_picture_fetch: " + errno_text(e);
            return e;
        }
        copy_picture(frames_.ref(index), &ref);
        copy_picture(frames_.dist(index), &dist);
        if (int e = vmaf_read_pictures(vmaf, &ref, &dist, index)) {
            *err = "vmaf_read_pictures: " + errno_text(e);
            return e;
        }
        return 0;
    }
};

// Frames in VkImages of our own device, adopted by the library: per frame the
// host only describes two images and waits when too many frames are queued.
class ImportFeeder final : public Feeder {
public:
    ImportFeeder(const FrameCycle &frames, const DeviceOptions &o) : frames_(frames), o_(o) {}
    ~ImportFeeder() override
    {
        ring_.reset();  // the context is closed: its reads are done or waited for here
        if (state_) vmaf_vulkan_state_free(&state_);
        caller_.reset();
    }
    int attach(VmafContext *vmaf, std::string *err) override
    {
        CallerDevice::Options co;
        co.device = o_.device;
        co.validation = o_.validation;
        co.graphics = o_.import_queue == "graphics";
        co.application_name = "vmaf_bench";
        co.on_message = [](const char *m) { std::fprintf(stderr, "vmaf_bench: validation: %s\n", m); };
        if (int e = CallerDevice::create(co, &caller_, err)) {
            if (e == -ENOTSUP && o_.validation) *err = "--validation: " + *err;
            return e;
        }
        if (int e = vmaf_vulkan_state_init_external(&state_, caller_->handles(o_.in_flight))) {
            *err = "vmaf_vulkan_state_init_external on " + caller_->name() + ": " + errno_text(e);
            return e;
        }
        if (int e = vmaf_vulkan_import_state(vmaf, state_)) {
            *err = "vmaf_vulkan_import_state: " + errno_text(e);
            return e;
        }
        const auto layout = o_.import_layout == "3plane" ? ImageRing::Layout::MultiPlane
                            : o_.import_layout == "r8"   ? ImageRing::Layout::Planar
                                                         : ImageRing::Layout::Auto;
        return ImageRing::create(*caller_, frames_, layout, &ring_, err);
    }
    int feed(VmafContext *vmaf, unsigned index, std::string *err) override
    {
        for (VmafVulkanImportSide side : {VMAF_VULKAN_IMPORT_REFERENCE, VMAF_VULKAN_IMPORT_DISTORTED}) {
            if (int e = ring_->import(vmaf, side, index)) {
                *err = "vmaf_vulkan_import_image: " + errno_text(e);
                return e;
            }
        }
        if (int e = vmaf_vulkan_read_imported_pictures(vmaf, index)) {
            *err = "vmaf_vulkan_read_imported_pictures: " + errno_text(e);
            return e;
        }
        return 0;
    }
    int drain(VmafContext *vmaf) override { return vmaf_vulkan_wait_compute(vmaf); }
    std::string device() const override
    {
        return caller_ ? caller_->name() + ", " + (ring_ ? ring_->layout_name() : "?") + ", " + caller_->queue_name()
                       : "?";
    }
    unsigned validation_messages(VmafContext *) const override
    {
        return caller_ ? caller_->validation_messages() : 0;
    }

private:
    const FrameCycle &frames_;
    const DeviceOptions &o_;
    std::unique_ptr<CallerDevice> caller_;
    VmafVulkanState *state_ = nullptr;
    std::unique_ptr<ImageRing> ring_;
};

#endif

}  // namespace

std::unique_ptr<Feeder> make_feeder(Mode mode, const DeviceOptions &o, const FrameCycle &frames, std::string *err)
{
    if (mode == Mode::Cpu) return std::make_unique<CpuFeeder>(frames);
#if VMAF_BENCH_HAVE_VULKAN
    switch (mode) {
    case Mode::VulkanHost: return std::make_unique<HostFeeder>(frames, o);
    case Mode::VulkanDevicePool: return std::make_unique<DevicePoolFeeder>(frames, o);
    case Mode::VulkanImport: return std::make_unique<ImportFeeder>(frames, o);
    default: break;
    }
#else
    (void)o;
#endif
    *err = std::string(mode_name(mode)) + ": this vmaf_bench was built without Vulkan";
    return nullptr;
}

uint64_t gpu_memory_bytes(VmafContext *vmaf)
{
#if VMAF_BENCH_HAVE_VULKAN
    return stats_of(vmaf).allocated_bytes;
#else
    (void)vmaf;
    return 0;
#endif
}

GpuTime gpu_time(VmafContext *vmaf)
{
    GpuTime t;
#if VMAF_BENCH_HAVE_VULKAN
    const VmafVulkanContextStats s = stats_of(vmaf);
    t.frames = s.gpu_frames;
    t.total_ms = s.gpu_total_ms;
    t.min_ms = s.gpu_min_ms;
    t.max_ms = s.gpu_max_ms;
#else
    (void)vmaf;
#endif
    return t;
}

bool enable_profile(VmafContext *vmaf)
{
#if VMAF_BENCH_HAVE_VULKAN
    return vmaf_vulkan_profile_enable(vmaf) == 0;
#else
    (void)vmaf;
    return false;
#endif
}

GpuProfile gpu_profile(VmafContext *vmaf)
{
    GpuProfile p;
#if VMAF_BENCH_HAVE_VULKAN
    unsigned count = 0;
    if (vmaf_vulkan_profile(vmaf, nullptr, nullptr, nullptr, 0, &count)) return p;
    std::vector<VmafVulkanProfileInterval> intervals(count);
    if (vmaf_vulkan_profile(vmaf, &p.frames, &p.total_ms, intervals.data(), count, &count)) return GpuProfile{};
    for (unsigned i = 0; i < count && i < intervals.size(); i++) {
        const VmafVulkanProfileInterval &in = intervals[i];
        p.parts.push_back({in.name, in.stage, in.carried != 0, in.total_ms});
    }
#else
    (void)vmaf;
#endif
    return p;
}

Placement placement(VmafContext *vmaf)
{
    Placement p;
#if VMAF_BENCH_HAVE_VULKAN
    const VmafVulkanContextStats s = stats_of(vmaf);
    p.engine = s.engine_started != 0;
    p.host_copies = s.host_copies != 0;
#else
    (void)vmaf;
#endif
    return p;
}

bool on_gpu(VmafContext *vmaf, const std::string &extractor)
{
#if VMAF_BENCH_HAVE_VULKAN
    return vmaf_vulkan_feature_on_gpu(vmaf, extractor.c_str()) == 1;
#else
    (void)vmaf;
    (void)extractor;
    return false;
#endif
}

}  // namespace vmaf::bench
