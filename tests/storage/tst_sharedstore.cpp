// SPDX-License-Identifier: MIT
// The studio and the CLI on one database file (the README invites it). The studio's side is a real process
// with the studio's store worker (studio_store_helper); the CLI's side is the real carbon3d-cli. The studio
// saves, does something that once cost runs (browsing the database's folder in a file dialog; any in-process
// read of the file), the CLI lists, the studio saves again and is killed with SIGKILL: every run must still
// be there. Before the fix the CLI's exit deleted the studio's WAL, later runs were invisible to the CLI and
// were lost with the kill.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

namespace {

int listedRuns(const QString& database) {
    QProcess cli;
    cli.start(QStringLiteral(CARBON3D_CLI), {QStringLiteral("runs"), QStringLiteral("list"),
                                             QStringLiteral("--db"), database, QStringLiteral("--json")});
    if (!cli.waitForFinished(120000) || cli.exitCode() != 0) {
        qWarning() << cli.readAllStandardError();
        return -1;
    }
    return QJsonDocument::fromJson(cli.readAllStandardOutput())
        .object()
        .value(QStringLiteral("runs"))
        .toArray()
        .size();
}

bool readLine(QProcess& process, const QByteArray& expected) {
    while (!process.canReadLine()) {
        if (!process.waitForReadyRead(120000))
            return false;
    }
    return process.readLine().trimmed() == expected;
}

} // namespace

class TstSharedStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void studioAndCliShareOneFile_data() {
        QTest::addColumn<QString>("action");
        QTest::newRow("import dialog on the database's folder") << QStringLiteral("browse");
        QTest::newRow("an in-process read of the database file") << QStringLiteral("foreign-read");
    }

    void studioAndCliShareOneFile() {
        QFETCH(QString, action);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString database = dir.filePath(QStringLiteral("results.sqlite"));
        QProcess studio;
        // A failed check returns early: the studio process must not outlive the test.
        const auto killStudio = qScopeGuard([&] {
            studio.kill();
            studio.waitForFinished(30000);
        });
        studio.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        studio.start(QStringLiteral(STUDIO_STORE_HELPER), {database, action});
        QVERIFY2(readLine(studio, "ready"), "the studio process did not save its first runs");

        QCOMPARE(listedRuns(database), 3);
        studio.write("continue\n");
        QVERIFY2(readLine(studio, "saved"), "the studio process did not save its second runs");
        QCOMPARE(listedRuns(database), 6); // was 3: the studio wrote into a WAL the CLI had deleted

        studio.kill(); // SIGKILL: no clean close, no checkpoint
        QVERIFY(studio.waitForFinished(30000));
        QCOMPARE(listedRuns(database), 6); // was 3: the runs saved after the CLI's list were gone
    }
};

QTEST_GUILESS_MAIN(TstSharedStore)
#include "tst_sharedstore.moc"
