// SPDX-License-Identifier: BSD-2-Clause-Patent
// A fixed pool of worker threads with a bounded queue: producers block when
// the queue is full, which bounds the pictures held in flight.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace vmaf {

class ThreadPool {
public:
    // Jobs receive the index of the worker running them (0..n_threads-1), so
    // callers can keep per-worker state without locks.
    using Job = std::function<void(unsigned worker)>;

    ThreadPool(unsigned n_threads, size_t max_queued);
    ~ThreadPool();  // finishes queued jobs, then joins

    void enqueue(Job job);
    void wait();  // until the queue is empty and no job runs
    unsigned size() const { return unsigned(workers_.size()); }

private:
    void run(unsigned worker);

    std::mutex mutex_;
    std::condition_variable has_work_, has_room_, idle_;
    std::deque<Job> queue_;
    size_t max_queued_;
    unsigned running_ = 0;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

}  // namespace vmaf
