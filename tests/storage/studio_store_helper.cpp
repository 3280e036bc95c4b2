// SPDX-License-Identifier: MIT
// The studio's side of tst_sharedstore: a process that holds the results database through the studio's own
// store worker, as the studio does, while CLI processes read it.
//   studio_store_helper DB browse        lists DB's directory in the studio's import dialog
//   studio_store_helper DB foreign-read  reads DB with a plain QFile (what a careless in-process reader does)
// Protocol on stdout/stdin: saves 3 runs, does the action, prints "ready"; waits for a line on stdin; saves 3
// more runs, prints "saved", then waits to be killed.
#include "FileDialogs.h"
#include "StorageSamples.h"
#include "workers/ResultsStoreWorker.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QTimer>
#include <cstdio>
#include <iostream>
#include <string>

using namespace carbon3d;

namespace {

[[noreturn]] void fail(const std::string& why) {
    std::cerr << "studio_store_helper: " << why << std::endl;
    std::exit(2); // NOLINT(concurrency-mt-unsafe): a single-threaded helper process ends here
}

template <typename Signal> void waitFor(ui::ResultsStoreWorker& worker, Signal signal) {
    QEventLoop loop;
    QObject::connect(&worker, signal, &loop, &QEventLoop::quit);
    QObject::connect(&worker, &ui::ResultsStoreWorker::failed, &loop,
                     [](const QString& message) { fail(message.toStdString()); });
    QTimer::singleShot(60000, &loop, [] { fail("the store worker did not answer within 60 s"); });
    loop.exec();
}

void saveRuns(ui::ResultsStoreWorker& worker, std::uint64_t firstSeed) {
    std::vector<RunResult> runs;
    for (std::uint64_t seed = firstSeed; seed < firstSeed + 3; ++seed)
        runs.push_back(test::sampleRun(48, seed));
    worker.saveRuns(test::sampleScenario("shared"), runs, test::sampleTraces());
    waitFor(worker, &ui::ResultsStoreWorker::saved);
}

// Shows the dialog on the database's folder in detail view and waits until it has a type for every file:
// a content-sniffing provider has opened each file by then.
void browse(const QString& directory) {
    QFileDialog* dialog =
        ui::makeFileDialog(nullptr, ui::FileDialogKind::OpenFile, QStringLiteral("Import carbon trace"),
                           directory, QStringLiteral("All files (*)"));
    dialog->setViewMode(QFileDialog::Detail);
    dialog->show();
    auto* model = dialog->findChild<QFileSystemModel*>();
    if (!model)
        fail("the file dialog has no file system model");
    const int typeColumn = 2;
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        const QModelIndex root = model->index(directory);
        const int rows = model->rowCount(root);
        int typed = 0;
        for (int row = 0; row < rows; ++row) {
            if (!model->index(row, typeColumn, root).data().toString().isEmpty())
                ++typed;
        }
        if (rows >= 3 && typed == rows)
            break;
        if (clock.elapsed() > 20000)
            fail("the dialog did not list " + directory.toStdString() + " within 20 s");
    }
    delete dialog;
}

void foreignRead(const QString& database) {
    QFile file(database);
    if (!file.open(QIODevice::ReadOnly))
        fail("cannot read " + database.toStdString());
    file.read(100);
    file.close();
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 3)
        fail("usage: studio_store_helper DB browse|foreign-read");
    const QString database = QString::fromLocal8Bit(argv[1]);
    const std::string action = argv[2];
    ui::ResultsStoreWorker worker;
    worker.open(database);
    waitFor(worker, &ui::ResultsStoreWorker::opened);
    saveRuns(worker, 1);
    if (action == "browse")
        browse(QFileInfo(database).absolutePath());
    else if (action == "foreign-read")
        foreignRead(database);
    else
        fail("unknown action " + action);
    std::cout << "ready" << std::endl;
    std::string line;
    std::getline(std::cin, line);
    saveRuns(worker, 4);
    std::cout << "saved" << std::endl;
    std::getline(std::cin, line); // killed here
    return 0;
}
