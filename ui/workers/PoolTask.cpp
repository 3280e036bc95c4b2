// SPDX-License-Identifier: MIT
#include "workers/PoolTask.h"

#include <QThread>

namespace carbon3d::ui {

namespace pool_task_detail {

std::mutex& handoffMutex() {
    static std::mutex mutex;
    return mutex;
}

PoolTask::PoolTask(std::function<void()> body)
    : m_body(std::move(body)) {
    // Unlocking after the body is built publishes it; run() locks before reading it.
    const std::lock_guard lock(handoffMutex());
}

void PoolTask::run() {
    handoffMutex().lock();
    handoffMutex().unlock();
    m_body();
}

Courier::Courier(QObject* receiver, std::function<void()> deliver)
    : QObject(receiver)
    , m_deliver(std::move(deliver)) {
    Q_ASSERT(receiver->thread() == QThread::currentThread());
}

void Courier::deliver() {
    m_deliver();
    deleteLater();
}

} // namespace pool_task_detail

void startOnPool(QThreadPool& pool, std::function<void()> work) {
    pool.start(new pool_task_detail::PoolTask(std::move(work))); // the pool deletes it after run()
}

} // namespace carbon3d::ui
