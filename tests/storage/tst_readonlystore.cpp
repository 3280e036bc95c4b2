// SPDX-License-Identifier: MIT
// A results database the user cannot write: a read-only folder, a read-only file, and a read-only folder
// whose -wal still holds runs of a writer that is running. The real carbon3d-cli reads each one, creates
// nothing beside it, and refuses writes in words a person understands. Permission bits bind only an
// unprivileged user, and CI runs as root, so the CLI runs as `nobody` (setpriv) when the test is root.
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>
#include <unistd.h>

namespace {

constexpr int kProcessTimeoutMs = 120000; // an ASan build of a whole simulation, on a loaded CI machine

struct Outcome {
    int exitCode = -1;
    QString out;
    QString err;
};

// Every file of `dir` with its size and content hash: "nothing beside the file" and "the file is as it was"
// in one comparison.
QStringList snapshot(const QString& dir) {
    QStringList entries;
    for (const QFileInfo& info : QDir(dir).entryInfoList(QDir::Files | QDir::Hidden, QDir::Name)) {
        QFile file(info.filePath());
        QByteArray hash = "unreadable";
        if (file.open(QIODevice::ReadOnly))
            hash = QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
        entries << QStringLiteral("%1 %2 %3")
                       .arg(info.fileName())
                       .arg(info.size())
                       .arg(QString::fromLatin1(hash));
    }
    return entries;
}

bool setMode(const QString& path, QFileDevice::Permissions permissions) {
    return QFile::setPermissions(path, permissions);
}

const QFileDevice::Permissions kReadOnlyDir = QFileDevice::ReadOwner | QFileDevice::ExeOwner |
                                              QFileDevice::ReadGroup | QFileDevice::ExeGroup |
                                              QFileDevice::ReadOther | QFileDevice::ExeOther;
const QFileDevice::Permissions kWritableDir = kReadOnlyDir | QFileDevice::WriteOwner;
const QFileDevice::Permissions kReadOnlyFile =
    QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther;

} // namespace

class TstReadOnlyStore : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_cli;    // a copy every user may run: the build folder may be closed to `nobody`
    QString m_folder; // holds the database
    QString m_database;

    Outcome run(const QStringList& arguments, bool unprivileged = true) const {
        QProcess process;
        if (unprivileged && geteuid() == 0)
            process.start(QStringLiteral("setpriv"),
                          QStringList{QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                                      QStringLiteral("--clear-groups"), m_cli} +
                              arguments);
        else
            process.start(m_cli, arguments);
        Outcome outcome;
        if (!process.waitForFinished(kProcessTimeoutMs)) {
            outcome.err = QStringLiteral("did not finish: ") + process.errorString();
            return outcome;
        }
        outcome.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        outcome.out = QString::fromUtf8(process.readAllStandardOutput());
        outcome.err = QString::fromUtf8(process.readAllStandardError());
        return outcome;
    }

    int listedRuns(QString* firstName = nullptr) const {
        const Outcome listed = run({QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--db"),
                                    m_database, QStringLiteral("--json")});
        if (listed.exitCode != 0) {
            qWarning() << listed.err;
            return -1;
        }
        const QJsonArray runs =
            QJsonDocument::fromJson(listed.out.toUtf8()).object().value(QStringLiteral("runs")).toArray();
        if (firstName != nullptr && !runs.isEmpty())
            *firstName = runs.first().toObject().value(QStringLiteral("name")).toString();
        return static_cast<int>(runs.size());
    }

    Outcome simulateInto(bool unprivileged) const {
        return run({QStringLiteral("simulate"),
                    QStringLiteral(CARBON3D_SOURCE_DIR "/sample_data/scenarios/learn-solar-california.json"),
                    QStringLiteral("--policy"), QStringLiteral("static-max"), QStringLiteral("--db"),
                    m_database},
                   unprivileged);
    }

    static void expectWordedRefusal(const Outcome& outcome, const char* expected) {
        QVERIFY2(outcome.exitCode > 0, qPrintable(outcome.err));
        QVERIFY2(outcome.err.contains(QLatin1String(expected)), qPrintable(outcome.err));
        QVERIFY2(!outcome.err.contains(QLatin1String("readonly database")), qPrintable(outcome.err));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_root.isValid());
        QVERIFY(setMode(m_root.path(), kWritableDir));
        m_cli = m_root.filePath(QStringLiteral("carbon3d-cli"));
        QVERIFY(QFile::copy(QStringLiteral(CARBON3D_CLI), m_cli));
        QVERIFY(setMode(m_cli, kReadOnlyDir | QFileDevice::WriteOwner));
    }

    // Each test starts from a database with one run, written by the test's own user, in a writable folder.
    void init() {
        m_folder = m_root.filePath(QString::fromLatin1(QTest::currentTestFunction()));
        QVERIFY(QDir().mkpath(m_folder));
        m_database = m_folder + QStringLiteral("/results.sqlite");
        const Outcome saved = simulateInto(false);
        QVERIFY2(saved.exitCode == 0, qPrintable(saved.err));
        QVERIFY(setMode(m_folder, kWritableDir));
    }

    void cleanup() { setMode(m_folder, kWritableDir); }

    void readOnlyFolderIsReadAndLeftAsItWas() {
        QVERIFY(setMode(m_folder, kReadOnlyDir));
        const QStringList before = snapshot(m_folder);
        QCOMPARE(listedRuns(), 1);
        const Outcome shown = run({QStringLiteral("runs"), QStringLiteral("show"), QStringLiteral("1"),
                                   QStringLiteral("--db"), m_database});
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        const QString exports = m_root.filePath(QStringLiteral("exports"));
        QVERIFY(QDir().mkpath(exports));
        QVERIFY(setMode(exports, kWritableDir | QFileDevice::WriteOther));
        const Outcome exported = run({QStringLiteral("runs"), QStringLiteral("export"), QStringLiteral("1"),
                                      QStringLiteral("--csv"), exports, QStringLiteral("--db"), m_database});
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));

        expectWordedRefusal(simulateInto(true), "folder");
        expectWordedRefusal(run({QStringLiteral("runs"), QStringLiteral("delete"), QStringLiteral("1"),
                                 QStringLiteral("--db"), m_database}),
                            "cannot be written");
        QCOMPARE(snapshot(m_folder), before);
        QCOMPARE(listedRuns(), 1);
    }

    // A read-only file in a folder the user may write: before immutable mode, reading it left an empty -wal
    // and -shm beside it.
    void readOnlyFileLeavesNothingBesideIt() {
        QFile::remove(m_database + QStringLiteral("-wal"));
        QFile::remove(m_database + QStringLiteral("-shm"));
        QVERIFY(setMode(m_database, kReadOnlyFile));
        QVERIFY(setMode(m_folder, kWritableDir | QFileDevice::WriteGroup | QFileDevice::WriteOther));
        const QStringList before = snapshot(m_folder);
        QCOMPARE(before.size(), 1);
        QCOMPARE(listedRuns(), 1);
        expectWordedRefusal(simulateInto(true), "no permission to write the file");
        QCOMPARE(snapshot(m_folder), before);
    }

    // Committed runs still in the -wal (their writer is running): a read-only reader must see them.
    void runsStillInTheWalAreRead() {
        sqlite3* writer = nullptr;
        QCOMPARE(sqlite3_open(m_database.toUtf8().constData(), &writer), SQLITE_OK);
        const auto exec = [&](const char* sql) {
            return sqlite3_exec(writer, sql, nullptr, nullptr, nullptr);
        };
        QCOMPARE(exec("PRAGMA wal_autocheckpoint = 0"), SQLITE_OK);
        QCOMPARE(exec("UPDATE runs SET name = 'renamed, still in the WAL'"), SQLITE_OK);
        QVERIFY(QFileInfo(m_database + QStringLiteral("-wal")).size() > 0);
        QVERIFY(setMode(m_folder, kReadOnlyDir));
        QString name;
        const int runs = listedRuns(&name);
        sqlite3_close(writer);
        QCOMPARE(runs, 1);
        QCOMPARE(name, QStringLiteral("renamed, still in the WAL"));
    }
};

QTEST_GUILESS_MAIN(TstReadOnlyStore)
#include "tst_readonlystore.moc"
