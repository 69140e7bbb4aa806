import Foundation
import XCTest

/// `keysim sweep` over a fleet's backend: a tiny fleet (40 chat typists through a busy hour)
/// on a slow backend (a 250 ms iteration, one request a batch), where one replica queues and
/// more do not. More replicas never make the busiest hour's p95 slower, and the one point
/// recommended is the fewest replicas meeting the target.
final class FleetSweepTests: XCTestCase {
    /// The fleet's scenario, written into `folder` (its texts by absolute path).
    static func scenario(_ folder: TemporaryFolder) throws -> String {
        let texts = PackageRoot.path + "/traces/text/"
        return try folder.write("tiny-fleet.json5", """
            {
              name: "tiny-fleet", seed: 7,
              debounce: { policy: "sentence-aware", sentenceEndMs: 400, otherwiseMs: 2000 },
              fleet: {
                users: 40, represents: 4000,
                day: { activity: "busy-hour" },
                sessions: { perUserDay: 12, length: 2 },
                typists: [{ typist: "chat", weight: 3, wpm: { mean: 36.2, sd: 13.2 } }, { typist: "copying", weight: 1 }],
                texts: ["\(texts)chat-session.txt", "\(texts)short-messages.txt"],
                networks: { wifi: 0.6, lte: 0.35, poor: 0.05 },
                backend: { preset: "self-hosted-small", replicas: 1, maxBatch: 1, queueLimit: 100000, admission: false,
                           iteration: { baseMs: 250, perRequestMs: 0, perPrefillTokenMs: 0 } },
              },
            }
            """)
    }

    func testTheFewestReplicasMeetingTheTargetIsRecommended() throws {
        let folder = try TemporaryFolder()
        let path = try Self.scenario(folder)
        let options = ["sweep", path, "--set", "fleet.backend.replicas=1,2,4,8", "--y", "busiest_hour_first_token_p95_ms",
                       "--where", "busiest_hour_first_token_p95_ms<=300", "--where", "busiest_hour_verdict_coverage >= 0.1"]
        let json = try runKeysim(options + ["--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["costMetric"] as? String, "replicas", "a fleet sweep's x is the replicas unless told")
        XCTAssertEqual(document["delayMetric"] as? String, "busiest_hour_first_token_p95_ms")
        let points = try XCTUnwrap(document["points"] as? [[String: Any]])
        XCTAssertEqual(points.map { ($0["settings"] as? [String: String])?["fleet.backend.replicas"] }, ["1", "2", "4", "8"])
        XCTAssertEqual(points.map { $0["cost"] as? Double }, [1, 2, 4, 8])
        // More replicas: never a later first token at the busiest hour, and one replica is far later.
        let p95 = try points.map { try XCTUnwrap($0["delay"] as? Double) }
        XCTAssertEqual(p95, p95.sorted(by: >), "\(p95)")
        XCTAssertGreaterThan(p95[0], 2 * p95[3], "\(p95)")
        // The recommended point is the smallest whose means meet both conditions.
        let meets = points.map { point in ((point["constrained"] as? [[String: Any]]) ?? []).allSatisfy { $0["met"] as? Bool == true } }
        let smallest = try XCTUnwrap(meets.firstIndex(of: true), "\(p95)")
        XCTAssertGreaterThan(smallest, 0, "one replica queues: \(p95)")
        XCTAssertEqual(document["recommended"] as? Int, smallest)
        XCTAssertEqual(points[0]["front"] as? String, "excluded")

        let text = try runKeysim(options)
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "keysim sweep \(path): 4 point(s) × 1 fleet run(s), seed 7")
        XCTAssertTrue(lines[1].hasPrefix("#  fleet.backend.replicas  runs  model replicas  ± 95%  busiest hour: first token, p95 (ms)"), lines[1])
        XCTAssertTrue(text.stdout.contains("\nx: model replicas: Model replicas serving"), text.stdout)
        let replicas = [1, 2, 4, 8][smallest]
        XCTAssertTrue(text.stdout.contains("\nrecommended: #\(smallest + 1) (fleet.backend.replicas=\(replicas)): the lowest model replicas "
                                           + "of the points on the front meeting busiest_hour_first_token_p95_ms <= 300 and "
                                           + "busiest_hour_verdict_coverage >= 0.1\n"), text.stdout)
    }

    func testFleetAndRunMetricsAreNotMixed() throws {
        let folder = try TemporaryFolder()
        let path = try Self.scenario(folder)
        let cases: [([String], String)] = [
            (["sweep", path, "--set", "fleet.backend.replicas=1,2", "--where", "key_latency_p99_ms < 10"],
             "'key_latency_p99_ms' is not a fleet metric, and \(path) sweeps a fleet"),
            (["sweep", path, "--set", "fleet.backend.replicas=1,2", "--replications", "auto"], "--replications auto needs keyboard runs"),
            (["sweep", path, "--set", "fleet.backend.replicas=1,2", "--db", "x.sqlite"], "a fleet sweep prints its points and writes no report"),
            (["sweep", "scenarios/default.json5", "--set", "debounce.otherwiseMs=500,600", "--where", "busiest_hour_verdict_p95_ms <= 800"],
             "'busiest_hour_verdict_p95_ms' is a fleet metric, and scenarios/default.json5 has no 'fleet' section"),
        ]
        for (arguments, message) in cases {
            let result = try runKeysim(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "nothing runs")
        }
    }
}
