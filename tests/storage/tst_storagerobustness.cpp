// SPDX-License-Identifier: MIT
#include "SqliteProbe.h"
#include "StorageSamples.h"
#include "domain/InputError.h"
#include "domain/InputFile.h"
#include "storage/ResultsStore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

QByteArray sha256Of(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Whether this process holds a POSIX lock on `path`'s inode, as the kernel lists it (/proc/locks: "1: POSIX
// ADVISORY READ PID MAJ:MIN:INODE START END").
bool holdsLockOn(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return false;
    std::ifstream locks("/proc/locks");
    std::string line;
    const std::string pid = std::to_string(::getpid());
    const std::string inode = ":" + std::to_string(info.st_ino);
    while (std::getline(locks, line)) {
        std::istringstream fields(line);
        std::string index, posix, advisory, mode, owner, file;
        fields >> index >> posix >> advisory >> mode >> owner >> file;
        if (posix == "POSIX" && owner == pid && file.size() > inode.size() &&
            file.compare(file.size() - inode.size(), inode.size(), inode) == 0)
            return true;
    }
    return false;
}

// A real results database with a few runs, closed (so its WAL has been checkpointed into the main file).
void writeHealthyDatabase(const std::string& path, int runs) {
    ResultsStore store(path);
    for (int i = 0; i < runs; ++i)
        store.saveRun(sampleScenario("healthy"), sampleRun(400, static_cast<std::uint64_t>(i)),
                      sampleTraces());
}

} // namespace

class TestStorageRobustness : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    int m_counter = 0;

    QString freshDir() {
        QString dir = m_dir.filePath(QStringLiteral("case%1").arg(++m_counter));
        QDir().mkpath(dir);
        return dir;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void refusesBadFilesAndLeavesThemUntouched_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected"); // part of the message
        QTest::newRow("random bytes")
            << QStringLiteral("random") << QStringLiteral("is not a SQLite database");
        QTest::newRow("text file") << QStringLiteral("text") << QStringLiteral("is not a SQLite database");
        QTest::newRow("truncated to half") << QStringLiteral("half") << QStringLiteral("is damaged");
        QTest::newRow("truncated inside the first page")
            << QStringLiteral("tiny") << QStringLiteral("is damaged");
        QTest::newRow("another program's SQLite file")
            << QStringLiteral("foreign") << QStringLiteral("of another program");
        QTest::newRow("from a newer Carbon3D") << QStringLiteral("newer") << QStringLiteral("newer Carbon3D");
        // Ours by header and version, but a column renamed by hand (fuzzing found queries failing on such
        // files with a logic_error): refused before anything is written.
        QTest::newRow("a column renamed by hand")
            << QStringLiteral("edited")
            << QStringLiteral("is damaged or was edited: 'metrics' has no column 'preemptions'");
    }
    void refusesBadFilesAndLeavesThemUntouched() {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        const QString dir = freshDir();
        const QString path = dir + QStringLiteral("/results.sqlite");
        const std::string p = path.toStdString();
        if (kind == QStringLiteral("random")) {
            QByteArray bytes(qsizetype{64} * 1024, '\0');
            QRandomGenerator random(42);
            for (char& b : bytes)
                b = static_cast<char>(random.bounded(256));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        } else if (kind == QStringLiteral("text")) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("timestamp,carbon_intensity_g_per_kwh\n2022-01-01T00:00:00Z,250\n");
        } else if (kind == QStringLiteral("half") || kind == QStringLiteral("tiny")) {
            writeHealthyDatabase(p, 5);
            QFile f(path);
            const qint64 size = f.size();
            QVERIFY(size > qint64{64} * 1024); // several pages, so that half of it loses live b-tree pages
            QVERIFY(f.resize(kind == QStringLiteral("half") ? size / 2 : 1000));
        } else if (kind == QStringLiteral("foreign")) {
            execSql(p, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); "
                       "INSERT INTO customers (name) VALUES ('Ada');");
        } else if (kind == QStringLiteral("edited")) {
            writeHealthyDatabase(p, 2);
            execSql(p, "ALTER TABLE metrics RENAME COLUMN preemptions TO preempted");
        } else if (kind == QStringLiteral("newer")) {
            writeHealthyDatabase(p, 1);
            execSql(p, "PRAGMA user_version = 99");
        }
        const QByteArray hashBefore = sha256Of(path);
        const QStringList filesBefore = QDir(dir).entryList(QDir::Files);
        QVERIFY(!hashBefore.isEmpty());

        for (ResultsStore::OpenMode mode :
             {ResultsStore::OpenMode::CreateIfMissing, ResultsStore::OpenMode::MustExist}) {
            std::string message;
            try {
                ResultsStore store(p, {mode, ResultsStore::OpenCheck::Quick});
            } catch (const InputError& error) {
                message = error.what();
            }
            QVERIFY2(contains(message, p), message.c_str()); // names the file
            QVERIFY2(contains(message, expected.toStdString()), message.c_str());
            QVERIFY2(contains(message, "has not modified the file"), message.c_str());
        }
        QCOMPARE(sha256Of(path), hashBefore);                    // byte-for-byte as it was
        QCOMPARE(QDir(dir).entryList(QDir::Files), filesBefore); // and no -wal, -shm or -journal appeared
    }

    void killedWriterLeavesEarlierRunsIntactAndNoPartialRun() {
        const QString dir = freshDir();
        const std::string path = (dir + QStringLiteral("/results.sqlite")).toStdString();
        std::vector<RunResult> earlier;
        {
            ResultsStore store(path);
            for (std::uint64_t seed : {1, 2, 3}) {
                earlier.push_back(sampleRun(1000 * seed, seed));
                store.saveRun(sampleScenario("earlier"), earlier.back(), sampleTraces());
            }
        }
        const std::int64_t tracesBefore = queryInt(path, "SELECT count(*) FROM traces");

        constexpr int kRows = 200000;
        QProcess helper;
        helper.start(QStringLiteral(STORAGE_HELPER),
                     {QStringLiteral("save-large"), QString::fromStdString(path), QString::number(kRows)});
        QVERIFY(helper.waitForStarted(10000));
        bool began = false;
        int rowsWritten = 0;
        while (rowsWritten < kRows / 2 && helper.state() == QProcess::Running) {
            if (!helper.canReadLine() && !helper.waitForReadyRead(30000))
                break;
            while (helper.canReadLine()) {
                const QByteArray line = helper.readLine().trimmed();
                if (line == "began")
                    began = true;
                else if (line.startsWith("rows "))
                    rowsWritten = line.mid(5).toInt();
                else
                    QFAIL(line.constData());
            }
        }
        QVERIFY(began);
        QVERIFY(rowsWritten >= kRows / 2);
        helper.kill(); // SIGKILL: no destructor, no rollback, no unlock
        QVERIFY(helper.waitForFinished(10000));
        QCOMPARE(helper.exitStatus(), QProcess::CrashExit);
        QVERIFY(!helper.readAllStandardOutput().contains("committed"));
        // The killed transaction had written pages to the WAL (SQLite's page cache spilled), so recovery is
        // really exercised: 100,000 rows are several MB.
        QVERIFY(QFile(dir + QStringLiteral("/results.sqlite-wal")).size() > qint64{1024} * 1024);

        ResultsStore store(path);
        const std::vector<std::string> findings = store.integrityCheck();
        QVERIFY2(findings.empty(), findings.empty() ? "" : findings.front().c_str());
        const std::vector<RunSummary> runs = store.listRuns();
        QCOMPARE(runs.size(), std::size_t(3));
        for (std::size_t i = 0; i < earlier.size(); ++i) {
            const StoredRun loaded = store.loadRun(runs[runs.size() - 1 - i].id); // newest first
            QCOMPARE(QString::fromStdString(firstDifference(earlier[i], loaded.result)), QString());
        }
        QCOMPARE(queryInt(path, "SELECT count(*) FROM series"), std::int64_t(1000 + 2000 + 3000));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM scenarios WHERE name = 'killed'"), std::int64_t(0));
        QCOMPARE(queryInt(path, "SELECT count(*) FROM traces"), tracesBefore);
        // And the file takes the next run normally.
        const RunId id = store.saveRun(sampleScenario("after"), sampleRun(10, 9), sampleTraces());
        QCOMPARE(store.loadRun(id).result.series.size(), std::size_t(10));
    }

    // Issue 40, item 1: the studio lost its database's lock when a scenario's trace was the database itself
    // (or a hard link to it): reading and closing any descriptor of the inode releases SQLite's POSIX locks,
    // and another process then corrupted the file. Every name of the open database and of its companions is
    // refused before a descriptor is opened; this process keeps its lock, and a second process writing
    // beside it leaves an intact file.
    void theOpenDatabaseIsNeverReadAsAnInput() {
        const QString dir = freshDir();
        const std::string path = (dir + QStringLiteral("/results.sqlite")).toStdString();
        std::optional<ResultsStore> open(std::in_place, path);
        ResultsStore& store = *open;
        store.saveRun(sampleScenario("studio"), sampleRun(100, 1), sampleTraces());
        QVERIFY(holdsLockOn(path)); // SQLite's shared lock in WAL mode, held while the connection is open
        const std::string link = (dir + QStringLiteral("/hl.json")).toStdString();
        QCOMPARE(::link(path.c_str(), link.c_str()), 0);
        for (const std::string& name : {path, link, path + "-wal", path + "-shm"}) {
            if (!QFileInfo::exists(QString::fromStdString(name)))
                continue;
            std::string error;
            try {
                readInputFile(name, std::int64_t{1} << 30, "a trace");
            } catch (const InputError& refused) {
                error = refused.what();
            }
            QVERIFY2(holdsLockOn(path), ("reading " + name + " released the database's lock").c_str());
            QVERIFY2(contains(error, "is the results database " + path) && contains(error, "locks"),
                     error.c_str());
        }

        QProcess writer;
        writer.start(QStringLiteral(STORAGE_HELPER),
                     {QStringLiteral("save-many"), QString::fromStdString(path), QStringLiteral("10"),
                      QStringLiteral("cli")});
        QVERIFY(writer.waitForStarted(10000));
        for (int i = 0; i < 10; ++i)
            store.saveRun(sampleScenario("studio"), sampleRun(500, static_cast<std::uint64_t>(i + 2)),
                          sampleTraces());
        QVERIFY(writer.state() == QProcess::NotRunning || writer.waitForFinished(120000));
        QVERIFY2(writer.exitCode() == 0, writer.readAllStandardError().constData());
        QVERIFY(store.integrityCheck().empty());
        QCOMPARE(store.listRuns().size(), std::size_t(21));

        // Once the store has closed, the file is an ordinary (if unsuitable) input again: refused for what it
        // holds, no longer for being open.
        open.reset();
        try {
            readInputFile(link, std::int64_t{1} << 30, "a trace");
            QFAIL("a SQLite file was read as text");
        } catch (const InputError& refused) {
            const std::string message = refused.what();
            QVERIFY2(message.find("is a SQLite database") != std::string::npos, message.c_str());
            QVERIFY2(message.find("this program has open") == std::string::npos, message.c_str());
        }
    }

    void twoProcessesSaveConcurrently() {
        const QString dir = freshDir();
        const std::string path = (dir + QStringLiteral("/results.sqlite")).toStdString();
        { ResultsStore create(path); }
        constexpr int kRunsEach = 25;
        QProcess a;
        QProcess b;
        for (auto [process, tag] : {std::pair{&a, "A"}, std::pair{&b, "B"}})
            process->start(QStringLiteral(STORAGE_HELPER),
                           {QStringLiteral("save-many"), QString::fromStdString(path),
                            QString::number(kRunsEach), QString::fromLatin1(tag)});
        QVERIFY(a.waitForStarted(10000));
        QVERIFY(b.waitForStarted(10000));

        // Meanwhile this process reads: never blocked, never an error, and the count only grows.
        ResultsStore reader(path);
        std::size_t seen = 0;
        while (a.state() == QProcess::Running || b.state() == QProcess::Running) {
            const std::size_t now = reader.listRuns().size();
            QVERIFY(now >= seen);
            seen = now;
            QTest::qWait(5);
        }
        // (waitForFinished() is false for a process that has already finished, hence the state check.)
        QVERIFY(a.state() == QProcess::NotRunning || a.waitForFinished(120000));
        QVERIFY(b.state() == QProcess::NotRunning || b.waitForFinished(120000));
        for (QProcess* process : {&a, &b}) {
            QCOMPARE(process->exitStatus(), QProcess::NormalExit);
            QVERIFY2(process->exitCode() == 0, process->readAllStandardError().constData());
            QCOMPARE(process->readAllStandardOutput().trimmed(), QByteArray("saved 25"));
        }

        const std::vector<RunSummary> runs = reader.listRuns();
        QCOMPARE(runs.size(), std::size_t(2 * kRunsEach));
        for (const char* tag : {"A", "B"}) {
            for (int i = 0; i < kRunsEach; ++i) {
                const std::string name = std::string(tag) + "-" + std::to_string(i);
                const auto it = std::find_if(runs.begin(), runs.end(),
                                             [&](const RunSummary& r) { return r.name == name; });
                QVERIFY2(it != runs.end(), name.c_str());
                const RunResult expected = sampleRun(500, static_cast<std::uint64_t>(i));
                QCOMPARE(QString::fromStdString(firstDifference(expected, reader.loadRun(it->id).result)),
                         QString());
            }
        }
        QVERIFY(reader.integrityCheck().empty());
    }
};

QTEST_GUILESS_MAIN(TestStorageRobustness)
#include "tst_storagerobustness.moc"
