// SPDX-License-Identifier: BSD-2-Clause-Patent
// The on-disk VkPipelineCache: compute pipelines compiled by an earlier process
// are loaded instead of compiled again (ADR 0063).
//
// One file per device and driver, in $XDG_CACHE_HOME/libvmaf-vk/ (else
// ~/.cache/libvmaf-vk/; on Windows %LOCALAPPDATA%\libvmaf-vk\, os/os.h),
// named by vendor and device id, driver version and
// pipelineCacheUUID; its own header repeats that key with the hash of the
// embedded SPIR-V (spirv::kBuildHash) and a checksum of the data. A file whose
// header, key, checksum or Vulkan pipeline cache header does not match is
// ignored (one warning per process) and replaced by this process's own. The
// file is written when a GPU engine has built the pipelines of its features and
// the cache grew (so a process that is killed, or exits without freeing its
// device, still leaves it), and again when the state goes if pipelines were
// made since and changed it. Writes go to a temporary file in the same
// directory, renamed over the old one, so two processes writing at once leave
// one whole file. VMAF_VULKAN_PIPELINE_CACHE=0 (off, false, no)
// turns the file off (the cache then lives as long as the state).
//
// The directory is used only when it is the user's alone (a directory itself,
// not a link; owned by the user; not writable by group or others); else no
// file, one warning. The file is read only when it is a regular file of at most
// 1 GiB (os/os.h: a FIFO or a device there is refused without waiting).
// Temporary files a killed save left are removed when ten minutes old.
//
// The pipelines are the same with or without it: it only saves compile time.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "vulkan/vk.h"

namespace vmaf::vk {

class State;

class PipelineCache {
public:
    // Never fails: without a usable file the cache starts empty (or, when
    // vkCreatePipelineCache itself fails, handle() is VK_NULL_HANDLE).
    static std::unique_ptr<PipelineCache> open(State &st);
    // Writes the file as save() does.
    ~PipelineCache();
    PipelineCache(const PipelineCache &) = delete;
    PipelineCache &operator=(const PipelineCache &) = delete;

    VkPipelineCache handle() const { return cache_; }
    // The file ("" when the file is off or there is no cache directory).
    const std::string &path() const { return path_; }
    // Bytes of pipeline cache data loaded from the file (0: none, or ignored).
    size_t loaded_bytes() const { return loaded_; }

    // A pipeline was made with the cache since (PipelineShelf): only then may
    // its data have changed.
    void mark_used() { used_.store(true, std::memory_order_release); }
    // Write the file now if pipelines were made since the last save and the
    // cache's data changed since it was loaded or saved (checked by checksum).
    // Returns the bytes written (0: nothing to write, off, or it failed). Safe
    // from several threads, and while pipelines are being made with the cache.
    size_t save();

    // The file name for a device (tests and tools); "" when no cache directory.
    static std::string file_for(const State &st);


private:
    explicit PipelineCache(State &st) : st_(st) {}
    void load();

    State &st_;
    VkPipelineCache cache_ = VK_NULL_HANDLE;
    std::string path_;
    size_t loaded_ = 0;
    std::atomic<bool> used_{false};
    std::mutex save_mutex_;
    size_t saved_size_ = 0;  // the data the file holds now (loaded or written): size and checksum
    uint64_t saved_checksum_ = 0;
};

}  // namespace vmaf::vk
