// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QRunnable>
#include <QThreadPool>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

// The one way the studio's workers hand work to a thread pool and a result back to the thread that asked.
// Every hand-off between threads goes through a std::mutex here. Qt's own hand-offs (inside QThreadPool
// and its event queues) are real, but Debian's Qt is compiled without ThreadSanitizer, which therefore
// cannot see them; a mutex of ours it can. With it, scripts/tsan checks the workers like the core
// (docs/RELIABILITY.md "ThreadSanitizer").
namespace carbon3d::ui {

namespace pool_task_detail {

// The mutex every hand-off takes: the submitting thread after building a task or a result, the other thread
// before reading it. One for the process, created before any worker thread: a mutex inside the object it
// publishes would itself be published without order.
std::mutex& handoffMutex();

// What the pool runs: a body built on the submitting thread, published to the pool thread by handoffMutex().
class PoolTask final : public QRunnable {
public:
    explicit PoolTask(std::function<void()> body);
    void run() override;

private:
    std::function<void()> m_body;
};

// Calls `deliver` on the receiver's thread and deletes itself. A child of the receiver, invoked by name:
// the queued call is built inside Qt, so nothing built on the pool thread is read on the receiver's.
class Courier final : public QObject {
    Q_OBJECT
public:
    Courier(QObject* receiver, std::function<void()> deliver);
    Q_INVOKABLE void deliver();

private:
    std::function<void()> m_deliver;
};

} // namespace pool_task_detail

// Runs `work()` on `pool`; nothing comes back. `work` must not throw (a worker turns errors into values).
void startOnPool(QThreadPool& pool, std::function<void()> work);

// Runs `work()` on `pool`, then `done(result)` (`done()` when work returns void) on the calling thread,
// which must be `receiver`'s. Results arrive in the order the tasks finish; a pool of one thread keeps
// the order of submission. `receiver` must own `pool` (or otherwise outlive its tasks): a delivery still
// queued when the receiver is destroyed is dropped with it. `work` must not throw.
template <typename Work, typename Done>
void runThen(QThreadPool& pool, QObject* receiver, Work work, Done done) {
    using Result = std::invoke_result_t<Work&>;
    using Stored = std::conditional_t<std::is_void_v<Result>, bool, Result>;
    auto exchange = std::make_shared<std::optional<Stored>>();
    auto* courier = new pool_task_detail::Courier(receiver, [exchange, done = std::move(done)]() mutable {
        std::optional<Stored> result;
        {
            const std::lock_guard lock(pool_task_detail::handoffMutex());
            result = std::move(*exchange);
        }
        if constexpr (std::is_void_v<Result>)
            done();
        else
            done(std::move(*result));
    });
    startOnPool(pool, [exchange, courier, work = std::move(work)]() mutable {
        std::optional<Stored> result;
        if constexpr (std::is_void_v<Result>) {
            work();
            result = true;
        } else {
            result = work();
        }
        {
            const std::lock_guard lock(pool_task_detail::handoffMutex());
            *exchange = std::move(result);
        }
        QMetaObject::invokeMethod(courier, "deliver", Qt::QueuedConnection);
    });
}

} // namespace carbon3d::ui
