// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "util/thread_pool.h"

namespace vmaf {

ThreadPool::ThreadPool(unsigned n_threads, size_t max_queued) : max_queued_(max_queued)
{
    for (unsigned i = 0; i < n_threads; i++) workers_.emplace_back([this, i] { run(i); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    has_work_.notify_all();
    for (auto &t : workers_) t.join();
}

void ThreadPool::enqueue(Job job)
{
    std::unique_lock lock(mutex_);
    has_room_.wait(lock, [&] { return queue_.size() < max_queued_; });
    queue_.push_back(std::move(job));
    lock.unlock();
    has_work_.notify_one();
}

void ThreadPool::wait()
{
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
}

void ThreadPool::run(unsigned worker)
{
    for (;;) {
        std::unique_lock lock(mutex_);
        has_work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping with nothing left
        Job job = std::move(queue_.front());
        queue_.pop_front();
        running_++;
        lock.unlock();
        has_room_.notify_one();

        job(worker);

        lock.lock();
        running_--;
        if (queue_.empty() && running_ == 0) idle_.notify_all();
    }
}

}  // namespace vmaf
