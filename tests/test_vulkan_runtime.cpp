// SPDX-License-Identifier: BSD-2-Clause-Patent
// The Vulkan runtime: device listing and choice, the allocator, the frame ring,
// and a real kernel (PSNR's SSE reduction) checked against closed forms. Runs on
// whatever device the loader offers (lavapipe in CI) with validation on.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <span>
#include <thread>
#include <vector>

#include "libvmaf/libvmaf_vulkan.h"
#include "spirv.h"
#include "stderr_capture.h"
#include "vulkan.h"
#include "vulkan/command.h"
#include "vulkan/state.h"
#include "vulkan/memory.h"
#include "vulkan/pipeline.h"

using namespace vmaf;
using vmaf::test::check_clean;
using vmaf::test::validated_state;

TEST_CASE("devices are listed and one is usable", "[vulkan]")
{
    unsigned n = 0;
    REQUIRE(vmaf_vulkan_list_devices(nullptr, 0, &n) == 0);
    REQUIRE(n > 0);
    std::vector<VmafVulkanDeviceInfo> d(n);
    unsigned again = 0;
    REQUIRE(vmaf_vulkan_list_devices(d.data(), n, &again) == 0);
    CHECK(again == n);
    int usable = 0;
    for (const auto &i : d) {
        std::printf("device: %s (%04x:%04x) type %d Vulkan %u.%u usable %d\n", i.name, i.vendor_id, i.device_id,
                    int(i.type), i.api_version >> 22, (i.api_version >> 12) & 0x3ff, i.usable);
        CHECK(std::strlen(i.name) > 0);
        usable += i.usable != 0;
        // Every Vulkan 1.1 device has a UUID (the batch tool matches devices by it).
        if (i.usable) CHECK(std::any_of(std::begin(i.uuid), std::end(i.uuid), [](uint8_t b) { return b != 0; }));
    }
    CHECK(usable > 0);
    CHECK(vmaf_vulkan_available() == usable);
    CHECK(vmaf_vulkan_list_devices(nullptr, 1, &n) == -EINVAL);
}

TEST_CASE("state init: configuration checks and device choice", "[vulkan]")
{
    VmafVulkanConfiguration cfg{};
    cfg.device_index = VMAF_VULKAN_DEVICE_AUTO;
    VmafVulkanState *s = nullptr;
    CHECK(vmaf_vulkan_state_init(nullptr, cfg) == -EINVAL);

    cfg.reserved[3] = 1;
    CHECK(vmaf_vulkan_state_init(&s, cfg) == -EINVAL);
    CHECK(s == nullptr);
    cfg.reserved[3] = 0;

    cfg.device_index = 1000;
    CHECK(vmaf_vulkan_state_init(&s, cfg) == -ENODEV);
    cfg.device_index = VMAF_VULKAN_DEVICE_AUTO;
    cfg.device_name = "no such device, surely";
    CHECK(vmaf_vulkan_state_init(&s, cfg) == -ENODEV);
    cfg.frames_in_flight = 17;
    cfg.device_name = nullptr;
    CHECK(vmaf_vulkan_state_init(&s, cfg) == -EINVAL);
    cfg.frames_in_flight = 0;

    // By name: the automatic choice's own name finds it again.
    std::unique_ptr<vk::State> st = validated_state();
    const std::string name = st->info().name;
    check_clean(*st);
    st.reset();
    cfg.device_name = name.c_str();
    REQUIRE(vmaf_vulkan_state_init(&s, cfg) == 0);
    REQUIRE(s != nullptr);
    // The state's device, without listing: the listing's entry of that name.
    VmafVulkanDeviceInfo mine;
    REQUIRE(vmaf_vulkan_state_device_info(s, &mine) == 0);
    CHECK(mine.name == name);
    unsigned n = 0;
    REQUIRE(vmaf_vulkan_list_devices(nullptr, 0, &n) == 0);
    std::vector<VmafVulkanDeviceInfo> listed(n);
    REQUIRE(vmaf_vulkan_list_devices(listed.data(), n, &n) == 0);
    const auto same = std::find_if(listed.begin(), listed.end(), [&](const VmafVulkanDeviceInfo &d) {
        return std::memcmp(d.uuid, mine.uuid, sizeof(d.uuid)) == 0 && name == d.name;
    });
    REQUIRE(same != listed.end());
    CHECK(std::memcmp(&*same, &mine, sizeof(mine)) == 0);
    CHECK(mine.usable != 0);
    CHECK(vmaf_vulkan_state_device_info(nullptr, &mine) == -EINVAL);
    CHECK(vmaf_vulkan_state_device_info(s, nullptr) == -EINVAL);
    CHECK(vmaf_vulkan_state_free(&s) == 0);
    CHECK(s == nullptr);
    CHECK(vmaf_vulkan_state_free(&s) == 0);
    CHECK(vmaf_vulkan_import_state(nullptr, nullptr) == -EINVAL);

    // A context takes one state: a second import is refused, not a silent swap.
    REQUIRE(vmaf_vulkan_state_init(&s, cfg) == 0);
    VmafConfiguration vcfg{};
    vcfg.log_level = VMAF_LOG_LEVEL_NONE;
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, vcfg) == 0);
    CHECK(vmaf_vulkan_import_state(vmaf, s) == 0);
    CHECK(vmaf_vulkan_import_state(vmaf, s) == -EBUSY);
    // Nor is a state in use freed under its context.
    VmafVulkanState *keep = s;
    CHECK(vmaf_vulkan_state_free(&s) == -EBUSY);
    CHECK(s == keep);
    CHECK(vmaf_close(vmaf) == 0);
    CHECK(vmaf_vulkan_state_free(&s) == 0);
    CHECK(s == nullptr);
}

TEST_CASE("allocator: host-visible blocks start small and double, device blocks are whole", "[vulkan]")
{
    auto st = validated_state();
    vk::Allocator &a = st->allocator();
    REQUIRE(a.block_count() == 0);
    constexpr VkDeviceSize MiB = VkDeviceSize(1) << 20;
    {
        // A few KiB of upload memory cost the first, small block, not 32 MiB
        // of pinned memory.
        vk::Buffer up;
        REQUIRE(a.create_buffer(4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, vk::MemoryUse::Upload, &up) == 0);
        CHECK(a.allocated_bytes() == vk::Allocator::kFirstHostBlock);
        // What does not fit takes a block twice the size, then four times...
        vk::Buffer more, most;
        REQUIRE(a.create_buffer(MiB, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, vk::MemoryUse::Upload, &more) == 0);
        CHECK(a.allocated_bytes() == vk::Allocator::kFirstHostBlock * 3);
        REQUIRE(a.create_buffer(3 * MiB, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, vk::MemoryUse::Upload, &most) == 0);
        CHECK(a.allocated_bytes() == vk::Allocator::kFirstHostBlock * 7);
        // ... or its own size, when larger.
        vk::Buffer large;
        REQUIRE(a.create_buffer(20 * MiB + 1, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, vk::MemoryUse::Upload, &large) == 0);
        CHECK(a.allocated_bytes() == vk::Allocator::kFirstHostBlock * 7 + 20 * MiB + (VkDeviceSize(1) << 16));
        CHECK(a.block_count() == 4);
    }
    CHECK(a.block_count() == 0);
    // Memory the host cannot see keeps whole blocks (nothing to pin), where the
    // device has such a type.
    const auto dev_types = a.ranked_types(vk::MemoryUse::Device, ~0u);
    REQUIRE(!dev_types.empty());
    if (!(st->memory_properties().memoryTypes[dev_types[0]].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
        vk::Buffer dev;
        REQUIRE(a.create_buffer(4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Device, &dev) == 0);
        CHECK(a.allocated_bytes() == vk::Allocator::kBlockSize);
    }
    check_clean(*st);
}

TEST_CASE("allocator: memory types, sub-allocation, dedicated blocks", "[vulkan]")
{
    auto st = validated_state();
    vk::Allocator &a = st->allocator();
    const auto &mp = st->memory_properties();
    REQUIRE(a.block_count() == 0);
    {
        vk::Buffer dev1, dev2, up, rb;
        REQUIRE(a.create_buffer(1000, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Device, &dev1) == 0);
        REQUIRE(a.create_buffer(5000, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Device, &dev2) == 0);
        REQUIRE(a.create_buffer(4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, vk::MemoryUse::Upload, &up) == 0);
        REQUIRE(a.create_buffer(4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryUse::Readback, &rb) == 0);
        CHECK(up.data() != nullptr);
        CHECK(rb.data() != nullptr);
        // The ranking puts a device-local type first for work buffers and a
        // host-visible one for staging and readback.
        const auto dev_types = a.ranked_types(vk::MemoryUse::Device, ~0u);
        REQUIRE(!dev_types.empty());
        CHECK((mp.memoryTypes[dev_types[0]].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0);
        for (auto use : {vk::MemoryUse::Upload, vk::MemoryUse::Readback}) {
            const auto t = a.ranked_types(use, ~0u);
            REQUIRE(!t.empty());
            CHECK((mp.memoryTypes[t[0]].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0);
        }
        // Small buffers share blocks: at most one per memory type in use.
        const size_t shared = a.block_count();
        CHECK(shared <= 3);
        {
            vk::Buffer big;
            const VkDeviceSize size = vk::Allocator::kBlockSize + 12345;
            REQUIRE(a.create_buffer(size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Device, &big) == 0);
            CHECK(big.size() == size);
            CHECK(a.block_count() == shared + 1);
        }
        CHECK(a.block_count() == shared);
        // Moving keeps one owner.
        vk::Buffer moved = std::move(dev2);
        CHECK(!dev2);
        CHECK(moved.size() == 5000);
    }
    CHECK(a.block_count() == 0);  // every block is returned once its buffers are gone
    check_clean(*st);
}

TEST_CASE("frame ring: slots are reused only after their work is done", "[vulkan]")
{
    auto st = validated_state();
    std::unique_ptr<vk::FrameRing> ring;
    REQUIRE(vk::FrameRing::create(*st, 3, &ring) == 0);
    std::vector<vk::Buffer> out(3);
    for (auto &b : out)
        REQUIRE(st->allocator().create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryUse::Readback, &b) == 0);
    // Ten frames through three slots; each fills its slot's buffer with its number.
    for (uint32_t frame = 0; frame < 10; frame++) {
        const unsigned slot = frame % 3;
        VkCommandBuffer cmd;
        REQUIRE(ring->begin(slot, &cmd) == 0);  // waits for frame - 3
        if (frame >= 3) {
            REQUIRE(out[slot].invalidate() == 0);
            uint32_t v;
            std::memcpy(&v, out[slot].data(), 4);
            CHECK(v == frame - 3);
        }
        st->fn().vkCmdFillBuffer(cmd, out[slot].get(), 0, 256, frame);
        vk::memory_barrier(*st, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        REQUIRE(ring->submit(slot) == 0);
    }
    REQUIRE(ring->wait_all() == 0);
    for (unsigned slot = 0; slot < 3; slot++) {
        bool done = false;
        REQUIRE(ring->poll(slot, &done) == 0);
        CHECK(done);
        REQUIRE(out[slot].invalidate() == 0);
        uint32_t v;
        std::memcpy(&v, out[slot].data() + 252, 4);
        CHECK(v == 7 + (slot + 2) % 3);  // frames 7, 8, 9 ended in slots 1, 2, 0
    }
    ring.reset();
    out.clear();
    check_clean(*st);
}

namespace {

// An 8-bit pair whose squared error is closed-form: x mod 4 against 0 over a
// 1003-wide row, padding to a 1024-byte stride that differs wildly and must
// not count. Per row 250 full cycles of 0+1+4+9 plus 0+1+4 for x = 1000..1002,
// so 3505; 37 rows give 129685.
struct SseClosedForm {
    static constexpr uint32_t w = 1003, h = 37, stride = 1024;
    static constexpr uint64_t sse = 129685;
    std::vector<uint8_t> ref = std::vector<uint8_t>(stride * h, 0), dist = std::vector<uint8_t>(stride * h, 0xff);
    SseClosedForm()
    {
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) dist[y * stride + x] = uint8_t(x % 4);
    }
};

vk::PipelineDesc sse_desc(std::span<const vk::SpecConstant> spec)
{
    vk::PipelineDesc d;
    d.shader = &vk::spirv::psnr_sse;
    d.buffers = 2;
    d.push_constant_size = 7 * 4;
    d.spec = spec;
    return d;
}

// Runs core/src/feature/psnr/psnr_sse.comp once over a reference and a distorted plane laid out
// `stride` bytes per row, and returns the sum of its partials. With `made`, that
// pipeline of the kernel (made for bytes_per_sample).
uint64_t run_sse_kernel(vk::State &st, unsigned bytes_per_sample, uint32_t w, uint32_t h, uint32_t stride,
                        uint32_t rows_per_group, const std::vector<uint8_t> &ref, const std::vector<uint8_t> &dist,
                        vk::ComputePipeline *made = nullptr)
{
    const uint32_t plane = stride * h;  // a multiple of 256 in the cases below
    REQUIRE(plane % 256 == 0);
    const uint32_t groups = (h + rows_per_group - 1) / rows_per_group;
    vk::Buffer planes, partials;
    auto &a = st.allocator();
    REQUIRE(a.create_buffer(2 * plane, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Upload, &planes) == 0);
    REQUIRE(a.create_buffer(groups * 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::Readback, &partials) ==
            0);
    std::memcpy(planes.data(), ref.data(), plane);
    std::memcpy(planes.data() + plane, dist.data(), plane);
    REQUIRE(planes.flush() == 0);

    std::unique_ptr<vk::ComputePipeline> pipe;
    if (!made) {
        const vk::SpecConstant spec[] = {{0, 64}, {1, bytes_per_sample}};
        REQUIRE(vk::ComputePipeline::create(st, sse_desc(spec), &pipe) == 0);
        made = pipe.get();
    }
    VkDescriptorSet set;
    const vk::BufferRange bufs[] = {{planes.get()}, {partials.get()}};
    REQUIRE(made->make_set(bufs, &set) == 0);
    const uint32_t push[7] = {0, plane / 4, stride / 4, w, h, rows_per_group, 0};
    REQUIRE(vk::run_once(st, [&](VkCommandBuffer cmd) {
                made->dispatch(cmd, set, push, groups);
                vk::memory_barrier(st, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
            }) == 0);
    REQUIRE(partials.invalidate() == 0);
    uint64_t sum = 0;
    for (uint32_t g = 0; g < groups; g++) {
        uint64_t v;
        std::memcpy(&v, partials.data() + 8 * g, 8);
        sum += v;
    }
    return sum;
}

}  // namespace

TEST_CASE("pipelines asked for under a deferral: compiled before wait() returns, once, and by whoever needs one first",
          "[vulkan]")
{
    auto st = validated_state();
    const SseClosedForm c;
    const vk::SpecConstant spec8[] = {{0, 64}, {1, 1}};
    vk::PipelineShelf &shelf = st->pipelines();
    const uint64_t built0 = shelf.built(), reused0 = shelf.reused();
    std::unique_ptr<vk::ComputePipeline> queued, other;
    int other_err = -1;
    {
        vk::PipelineDeferral deferral(shelf);
        REQUIRE(vk::ComputePipeline::create(*st, sse_desc(spec8), &queued) == 0);
        // Another thread, with no deferral of its own, asks for the same
        // pipeline: it gets it compiled (by itself, or waiting for a worker).
        std::thread t([&] { other_err = vk::ComputePipeline::create(*st, sse_desc(spec8), &other); });
        t.join();
        REQUIRE(other_err == 0);
        CHECK(run_sse_kernel(*st, 1, c.w, c.h, c.stride, 4, c.ref, c.dist, other.get()) == c.sse);
        // A dispatch before wait() compiles its pipeline first, if no worker did.
        CHECK(run_sse_kernel(*st, 1, c.w, c.h, c.stride, 37, c.ref, c.dist, queued.get()) == c.sse);
        CHECK(deferral.wait() == 0);
        CHECK(deferral.wait() == 0);  // nothing left: at once
    }
    CHECK(shelf.built() - built0 == 1);   // compiled once
    CHECK(shelf.reused() - reused0 == 1);  // the other thread's
    {
        // Asked for again under a new deferral: from the shelf, nothing compiled.
        vk::PipelineDeferral deferral(shelf);
        std::unique_ptr<vk::ComputePipeline> again;
        REQUIRE(vk::ComputePipeline::create(*st, sse_desc(spec8), &again) == 0);
        CHECK(deferral.wait() == 0);
        CHECK(shelf.built() - built0 == 1);
        CHECK(run_sse_kernel(*st, 1, c.w, c.h, c.stride, 4, c.ref, c.dist, again.get()) == c.sse);
    }
    check_clean(*st);
}

TEST_CASE("the PSNR SSE kernel on closed forms", "[vulkan][psnr]")
{
    auto st = validated_state();

    SECTION("8-bit: error x mod 4 over a 1003-wide row")
    {
        const SseClosedForm c;  // its comment works out 129685
        CHECK(run_sse_kernel(*st, 1, c.w, c.h, c.stride, 4, c.ref, c.dist) == 129685u);
        CHECK(run_sse_kernel(*st, 1, c.w, c.h, c.stride, 37, c.ref, c.dist) == 129685u);
    }
    SECTION("16-bit: full-scale errors overflow 32 bits")
    {
        // 517 x 3 samples with error 65535: 1551 * 65535^2 = 6661290984975.
        const uint32_t w = 517, h = 3, stride = 1280;
        std::vector<uint8_t> ref(stride * h, 0), dist(stride * h, 0x5a);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                ref[y * stride + 2 * x] = 0xff;
                ref[y * stride + 2 * x + 1] = 0xff;
                dist[y * stride + 2 * x] = 0;
                dist[y * stride + 2 * x + 1] = 0;
            }
        CHECK(run_sse_kernel(*st, 2, w, h, stride, 1, ref, dist) == 6661290984975ull);
    }
    check_clean(*st);
}

TEST_CASE("tables reach the device whole: inline in the command buffer, or staged when large", "[vulkan]")
{
    auto st = validated_state();
    // One word; a table past one 64 KiB update command (VIF's is 65540 bytes); one
    // past the inline limit, staged (ciede's is 1 MiB).
    for (const size_t words : {size_t(1), size_t(16385), size_t(70001)}) {
        INFO(words);
        std::vector<uint32_t> table(words);
        for (size_t i = 0; i < words; i++) table[i] = uint32_t(i * 2654435761u) ^ 0x5a5a5a5au;
        std::shared_ptr<const vk::Buffer> buffer;
        const uint64_t before = st->tables().uploads();
        REQUIRE(vk::upload_table(*st, std::as_bytes(std::span(table)), &buffer) == 0);
        CHECK(st->tables().uploads() == before + 1);
        REQUIRE(buffer);
        REQUIRE(buffer->size() == words * 4);
        vk::Buffer back;
        REQUIRE(st->allocator().create_buffer(words * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryUse::Readback,
                                              &back) == 0);
        REQUIRE(vk::run_once(*st, [&](VkCommandBuffer cmd) {
                    const VkBufferCopy region = {0, 0, words * 4};
                    st->fn().vkCmdCopyBuffer(cmd, buffer->get(), back.get(), 1, &region);
                    vk::memory_barrier(*st, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                                       VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
                }) == 0);
        REQUIRE(back.invalidate() == 0);
        CHECK(std::memcmp(back.data(), table.data(), words * 4) == 0);
    }
    std::shared_ptr<const vk::Buffer> buffer;
    const uint32_t odd[3] = {1, 2, 3};
    CHECK(vk::upload_table(*st, std::as_bytes(std::span(odd)).first(10), &buffer) == -EINVAL);
    CHECK(vk::upload_table(*st, {}, &buffer) == -EINVAL);
    check_clean(*st);
}

// Run by the build with VK_ICD_FILENAMES/VK_DRIVER_FILES pointing nowhere.
TEST_CASE("contexts on one device share its pipelines and tables: the second builds and uploads none and scores the same",
          "[vulkan]")
{
    auto st = validated_state();
    const std::string pair = "coffee_320x240_crf28";
    const uint64_t built0 = st->pipelines().built();
    const auto first = vmaf::test::score_model_through_api(pair, "vmaf_v0.6.1", st.get(), {"vif", "adm", "motion"});
    const uint64_t built1 = st->pipelines().built(), reused1 = st->pipelines().reused();
    CHECK(first.gpu_engine);
    CHECK(built1 > built0);  // VIF's, ADM's and motion's kernels, built once
    CHECK(st->tables().uploads() == 1);  // VIF's log2 table
    const auto second = vmaf::test::score_model_through_api(pair, "vmaf_v0.6.1", st.get(), {"vif", "adm", "motion"});
    CHECK(second.gpu_engine);
    CHECK(st->pipelines().built() == built1);
    CHECK(st->pipelines().reused() - reused1 == built1 - built0);
    CHECK(st->tables().uploads() == 1);  // the same table, shared
    REQUIRE(first.values.size() == second.values.size());
    REQUIRE_FALSE(first.values.empty());
    for (const auto &[name, values] : first.values) {
        INFO(name);
        CHECK(second.values.at(name) == values);  // and both equal libvmaf's (the vif, adm and motion tests)
    }
    // A device of its own builds them anew: the shelf is per device.
    auto other = validated_state();
    const auto third = vmaf::test::score_model_through_api(pair, "vmaf_v0.6.1", other.get(), {"vif", "adm", "motion"});
    CHECK(other->pipelines().built() == built1 - built0);
    CHECK(third.values == first.values);
    check_clean(*st);
    check_clean(*other);
}

TEST_CASE("without a driver every entry point fails cleanly", "[nodriver]")
{
    VmafVulkanConfiguration cfg{};
    cfg.device_index = VMAF_VULKAN_DEVICE_AUTO;
    VmafVulkanState *s = nullptr;
    const int err = vmaf_vulkan_state_init(&s, cfg);
    CHECK(err == -ENODEV);
    CHECK(s == nullptr);
    CHECK(vmaf_vulkan_available() == -ENODEV);
    unsigned n = 99;
    CHECK(vmaf_vulkan_list_devices(nullptr, 0, &n) == 0);
    CHECK(n == 0);

    // A context without a GPU state still scores on the CPU.
    VmafConfiguration vcfg{};
    VmafContext *vmaf = nullptr;
    REQUIRE(vmaf_init(&vmaf, vcfg) == 0);
    REQUIRE(vmaf_use_feature(vmaf, "psnr", nullptr) == 0);
    VmafPicture a, b;
    REQUIRE(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV400P, 8, 16, 16) == 0);
    REQUIRE(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV400P, 8, 16, 16) == 0);
    for (unsigned y = 0; y < 16; y++) {
        std::memset(static_cast<uint8_t *>(a.data[0]) + y * a.stride[0], 10, 16);
        std::memset(static_cast<uint8_t *>(b.data[0]) + y * b.stride[0], 13, 16);
    }
    REQUIRE(vmaf_read_pictures(vmaf, &a, &b, 0) == 0);
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    double v = 0;
    REQUIRE(vmaf_feature_score_at_index(vmaf, "psnr_y", &v, 0) == 0);
    CHECK(v == Approx(10 * std::log10(255.0 * 255.0 / 9.0)).epsilon(1e-12));
    vmaf_close(vmaf);
}

TEST_CASE("without a driver vmaf_init_backend fails vulkan with its reason and puts auto on the CPU", "[nodriver]")
{
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_WARNING;
    VmafVulkanConfiguration dev{};
    dev.device_index = VMAF_VULKAN_DEVICE_AUTO;
    VmafBackendChoice chosen{};
    VmafContext *vmaf = nullptr;
    {
        vmaf::test::StderrCapture err;
        CHECK(vmaf_init_backend(&vmaf, cfg, VMAF_BACKEND_VULKAN, dev, &chosen) == -ENODEV);
        CHECK(vmaf == nullptr);
        CHECK_THAT(err.text(), Catch::Contains("vmaf_init_backend: backend vulkan: no usable Vulkan device (" +
                                               std::string(std::strerror(ENODEV)) +
                                               "); choose cpu or auto to score on the CPU"));
    }
    vmaf::test::StderrCapture err;
    REQUIRE(vmaf_init_backend(&vmaf, cfg, VMAF_BACKEND_AUTO, dev, &chosen) == 0);
    const std::string text = err.text();
    CHECK(chosen.backend == VMAF_BACKEND_CPU);
    const std::string reason = chosen.reason;
    CHECK_THAT(reason, Catch::StartsWith("Vulkan: "));
    CHECK_THAT(text, Catch::Contains("libvmaf WARNING: backend auto: no usable Vulkan device (" + reason +
                                     "); this context scores on the CPU"));
    CHECK(text.find("libvmaf ERROR") == std::string::npos);  // the notice alone
    REQUIRE(vmaf_use_feature(vmaf, "psnr", nullptr) == 0);
    VmafPicture a, b;
    REQUIRE(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV400P, 8, 16, 16) == 0);
    REQUIRE(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV400P, 8, 16, 16) == 0);
    for (unsigned y = 0; y < 16; y++) {
        std::memset(static_cast<uint8_t *>(a.data[0]) + y * a.stride[0], 10, 16);
        std::memset(static_cast<uint8_t *>(b.data[0]) + y * b.stride[0], 14, 16);
    }
    REQUIRE(vmaf_read_pictures(vmaf, &a, &b, 0) == 0);
    REQUIRE(vmaf_read_pictures(vmaf, nullptr, nullptr, 0) == 0);
    double v = 0;
    REQUIRE(vmaf_feature_score_at_index(vmaf, "psnr_y", &v, 0) == 0);
    CHECK(v == Approx(10 * std::log10(255.0 * 255.0 / 16.0)).epsilon(1e-12));
    vmaf_close(vmaf);
}

TEST_CASE("vmaf_vulkan_enable_device_features: the required features, the optional ones the device has", "[vulkan][api]")
{
    auto count_set = [](const VkBool32 *flags, size_t n) {
        return size_t(std::count(flags, flags + n, VkBool32(VK_TRUE)));
    };
    const size_t n_core = sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32);
    // Only what libvmaf_vulkan.h lists as required, in the 1.1 and 1.2 structs
    // in either order among others of the caller's.
    VkPhysicalDeviceFeatures2 f = vk::make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    auto v11 = vk::make<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    auto v12 = vk::make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    auto other = vk::make<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
    f.pNext = &v12;
    v12.pNext = &other;
    other.pNext = &v11;
    v11.multiview = VK_TRUE;  // the caller's own: kept
    REQUIRE(vmaf_vulkan_enable_device_features(&f, nullptr) == 0);
    CHECK(f.features.shaderInt64 == VK_TRUE);
    CHECK(f.features.shaderInt16 == VK_TRUE);
    CHECK(f.features.shaderFloat64 == VK_FALSE);
    CHECK(count_set(&f.features.robustBufferAccess, n_core) == 2);
    CHECK(v11.storageBuffer16BitAccess == VK_TRUE);
    CHECK(v11.multiview == VK_TRUE);
    CHECK(v12.storageBuffer8BitAccess == VK_TRUE);
    CHECK(v12.timelineSemaphore == VK_TRUE);
    CHECK(v12.hostQueryReset == VK_FALSE);
    CHECK(other.synchronization2 == VK_FALSE);
    CHECK(f.pNext == &v12);
    CHECK(v12.pNext == &other);
    CHECK(other.pNext == &v11);
    CHECK(v11.pNext == nullptr);

    // The same as the library's own device asks for (vk::FeatureChain::require).
    vk::FeatureChain own;
    own.require();
    CHECK(std::memcmp(&own.core.features, &f.features, sizeof(f.features)) == 0);

    // With what the device has: the optional ones it has, nothing else of it.
    vk::FeatureChain have;
    have.core.features.shaderFloat64 = VK_TRUE;
    have.core.features.robustBufferAccess = VK_TRUE;
    have.v12.hostQueryReset = VK_TRUE;
    have.v12.bufferDeviceAddress = VK_TRUE;
    vk::FeatureChain g;
    REQUIRE(vmaf_vulkan_enable_device_features(&g.core, &have.core) == 0);
    CHECK(g.core.features.shaderFloat64 == VK_TRUE);
    CHECK(g.core.features.robustBufferAccess == VK_FALSE);
    CHECK(g.v12.hostQueryReset == VK_TRUE);
    CHECK(g.v12.bufferDeviceAddress == VK_FALSE);
    CHECK(count_set(&g.core.features.robustBufferAccess, n_core) == 3);

    // Refusals, each with one log line.
    CHECK(vmaf_vulkan_enable_device_features(nullptr, nullptr) == -EINVAL);
    VkPhysicalDeviceFeatures2 lone = vk::make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    lone.pNext = &other;
    other.pNext = nullptr;
    CHECK(vmaf_vulkan_enable_device_features(&lone, nullptr) == -EINVAL);
    CHECK(lone.features.shaderInt64 == VK_FALSE);  // nothing written on a refusal
    vk::FeatureChain h;
    CHECK(vmaf_vulkan_enable_device_features(&h.core, &lone) == -EINVAL);
    CHECK(h.core.features.shaderInt64 == VK_FALSE);
    auto wrong = vk::make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    CHECK(vmaf_vulkan_enable_device_features(&wrong, nullptr) == -EINVAL);
}
