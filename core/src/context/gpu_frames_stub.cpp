// SPDX-License-Identifier: BSD-2-Clause-Patent
// GpuFrames in a library built without Vulkan (ADR 0079): there is no GPU, so
// every feature runs on the CPU, no picture is a device picture, and every
// Vulkan call fails cleanly with -ENOSYS.
#include "context/gpu_frames.h"

#include <cerrno>

#include "util/log.h"

namespace vmaf {

namespace {

int unavailable(const char *what)
{
    log(VMAF_LOG_LEVEL_ERROR, "%s: this libvmaf was built without Vulkan\n", what);
    return -ENOSYS;
}

class NoGpu final : public GpuFrames {
public:
    int import_state(vk::State *, bool) override
    {
        log(VMAF_LOG_LEVEL_ERROR, "this libvmaf was built without Vulkan\n");
        return -ENOSYS;
    }
    int use_shared_state(vk::State *, bool started) override { return started ? -EINVAL : -ENOSYS; }
    vk::State *state() const override { return nullptr; }
    bool shared() const override { return false; }
    const vk::Engine *engine() const override { return nullptr; }

    int start(const FrameFormat &, std::vector<std::unique_ptr<RegisteredFeature>> &, bool, HostFrame) override
    {
        return 0;
    }
    bool is_device_picture(const VmafPicture &) const override { return false; }
    int submit(const VmafPicture &, const VmafPicture &, unsigned, bool *taken) override
    {
        *taken = false;
        return 0;
    }
    int collect_oldest(bool *pending) override
    {
        *pending = false;
        return 0;
    }
    int flush() override { return 0; }
    void stop_engine() override {}
    void close() override {}

    int preallocate(const VmafVulkanPictureConfiguration &, bool) override
    {
        return unavailable("vmaf_vulkan_preallocate_pictures");
    }
    PicturePool *host_pool() override { return nullptr; }
    int fetch(VmafPicture *, bool) override { return unavailable("vmaf_vulkan_picture_fetch"); }
    int import(unsigned, const GpuImport &src, unsigned, const AdmitImport &) override
    {
        switch (src.kind) {
        case GpuImport::Kind::Image: return unavailable("vmaf_vulkan_import_image");
        case GpuImport::Kind::External: return unavailable("vmaf_vulkan_import_external");
        case GpuImport::Kind::VaSurface: break;
        }
        return unavailable("vmaf_vulkan_import_va_surface");
    }
    int check_import(unsigned, unsigned) const override { return 0; }
    int read_imported(unsigned, bool) override { return unavailable("vmaf_vulkan_read_imported_pictures"); }
    int wait_compute(bool) override { return unavailable("vmaf_vulkan_wait_compute"); }
};

}  // namespace

std::unique_ptr<GpuFrames> GpuFrames::create(const VmafConfiguration &)
{
    return std::make_unique<NoGpu>();
}

}  // namespace vmaf
