import XCTest
@testable import Scenarios
@testable import Sim

/// The `fleet` section: defaults, every field, overrides, and an error naming the field for
/// every malformed one.
final class FleetConfigTests: XCTestCase {
    static let typists = "typists: [{ typist: 'chat' }], texts: ['../traces/text/chat-session.txt'],"

    func testAMinimalFleetTakesTheDefaults() throws {
        let scenario = try FleetRunnerTests.scenario("users: 10, " + Self.typists)
        let fleet = try XCTUnwrap(scenario.fleet)
        XCTAssertEqual(scenario.traces, [], "a fleet needs no traces")
        XCTAssertEqual(fleet.users, 10)
        XCTAssertEqual(fleet.represents, 10)
        XCTAssertEqual(fleet.day, FleetConfig.Day(hours: 24, startHour: 0, activityName: "messaging", activity: FleetActivity.messagingWeights))
        XCTAssertEqual(fleet.day.spanShare, 1, accuracy: 1e-12)
        XCTAssertEqual(fleet.sessions, FleetConfig.Sessions(perUserDay: .poisson(mean: 8.9), messages: .geometric(mean: 2)))
        XCTAssertEqual(fleet.networks, [])
        XCTAssertEqual(fleet.backendPreset, .selfHostedSmall)
        XCTAssertEqual(fleet.backend, .preset(.selfHostedSmall))
        XCTAssertEqual(fleet.partitions, [FleetConfig.Partition(share: 1, replicas: nil)])
        guard case .typists(let typists) = fleet.typists.members else { return XCTFail("typists") }
        XCTAssertEqual(typists.map(\.name), ["chat"])
    }

    func testEveryField() throws {
        let scenario = try FleetRunnerTests.scenario("""
            users: 1000, represents: 1000000,
            day: { hours: 6, start: 18, activity: [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2,2,2,2,2,2] },
            sessions: { perUserDay: { fixed: 5 }, length: { geometric: 3 } },
            typists: [{ typist: 'chat', weight: 3, wpm: { mean: 36.2, sd: 13.2 } }, { typist: 'copying', wpm: 50 }],
            texts: ['../traces/text/chat-session.txt', '../traces/text/short-messages.txt'],
            networks: { poor: 0.05, wifi: 0.6, lte: 0.35 },
            backend: { preset: 'hosted-api', replicas: 3, maxBatch: 16, iteration: { baseMs: 10, perRequestMs: 0.5, perPrefillTokenMs: 0.01 },
                       queueLimit: 99, admission: { firstTokenTargetMs: 300, status: 429, retryAfterMs: 1000 },
                       limits: { perUser: { requestsPerMinute: 30 } }, pricing: { inputPerMillion: 0.2 },
                       promptCache: { ttlMs: 60000, minTokens: 512 } },
            partitions: [{ share: 2, replicas: 4 }, { share: 1 }],
            """)
        let fleet = try XCTUnwrap(scenario.fleet)
        XCTAssertEqual(fleet.represents, 1_000_000)
        XCTAssertEqual(fleet.day.hours, 6)
        XCTAssertEqual(fleet.day.startHour, 18)
        XCTAssertEqual(fleet.day.activityName, "custom")
        XCTAssertEqual(fleet.day.spanShare, 12.0 / 30.0, accuracy: 1e-12)
        XCTAssertEqual(fleet.sessions, FleetConfig.Sessions(perUserDay: .fixed(5), messages: .geometric(mean: 3)))
        XCTAssertEqual(fleet.networks.map(\.preset), [.wifi, .lte, .poor], "in the presets' order, not the file's")
        XCTAssertEqual(fleet.networks.map(\.weight), [0.6, 0.35, 0.05])
        XCTAssertEqual(fleet.backendPreset, .hostedAPI)
        XCTAssertEqual(fleet.backend.replicas, 3)
        XCTAssertEqual(fleet.backend.maxBatch, 16)
        XCTAssertEqual(fleet.backend.iteration, .init(baseNanos: 10_000_000, perRequestNanos: 500_000, perPrefillTokenNanos: 10_000))
        XCTAssertEqual(fleet.backend.queueLimit, 99)
        XCTAssertEqual(fleet.backend.admission, .init(firstTokenTarget: .milliseconds(300), status: 429, retryAfter: .milliseconds(1000)))
        XCTAssertEqual(fleet.backend.limits.perUser?.requestsPerMinute, 30)
        XCTAssertNotEqual(fleet.backend.pricing, SharedBackendConfig.preset(.hostedAPI).pricing)
        XCTAssertEqual(fleet.backend.promptCache, PromptCacheConfig(ttl: .milliseconds(60_000), minTokens: 512))
        XCTAssertEqual(fleet.partitions, [.init(share: 2, replicas: 4), .init(share: 1, replicas: nil)])
        XCTAssertEqual(fleet.backend(ofPartition: 0).replicas, 4)
        XCTAssertEqual(fleet.backend(ofPartition: 1).replicas, 3)
        XCTAssertEqual(fleet.userRanges(users: 1000), [0..<666, 666..<1000])
    }

    func testTheBusyHourIsThePeakHourAlone() throws {
        let fleet = try XCTUnwrap(try FleetRunnerTests.scenario("users: 10, day: { activity: 'busy-hour' }, " + Self.typists).fleet)
        XCTAssertEqual(fleet.day.hours, 1)
        XCTAssertEqual(fleet.day.startHour, 21)
        XCTAssertEqual(fleet.day.spanShare, 6.8 / 99.1, accuracy: 1e-12)
        let flat = try XCTUnwrap(try FleetRunnerTests.scenario("users: 10, day: { activity: 'flat', hours: 2 }, " + Self.typists).fleet)
        XCTAssertEqual(flat.day.spanShare, 2.0 / 24.0, accuracy: 1e-12)
        XCTAssertEqual(try FleetRunnerTests.scenario("users: 10, partitions: 3, " + Self.typists).fleet?.userRanges(users: 10),
                       [0..<3, 3..<6, 6..<10])
    }

    func testOverridesReachTheFleet() throws {
        let overrides = try ["fleet.backend.replicas=4", "fleet.users=25", "fleet.networks.lte=1", "fleet.day.activity=flat"]
            .map { text throws in try ScenarioLoader.Override.parse(text) }
        let scenario = try FleetRunnerTests.scenario("users: 10, backend: { replicas: 2 }, " + Self.typists, overrides: overrides)
        let fleet = try XCTUnwrap(scenario.fleet)
        XCTAssertEqual(fleet.backend.replicas, 4)
        XCTAssertEqual(fleet.users, 25)
        XCTAssertEqual(fleet.networks, [.init(preset: .lte, weight: 1)])
        XCTAssertEqual(fleet.day.activity, Array(repeating: 1, count: 24))
        let plain = try FleetRunnerTests.scenario("users: 10, backend: { replicas: 2 }, " + Self.typists)
        XCTAssertNotEqual(FleetRunner.fingerprint(plain), FleetRunner.fingerprint(scenario), "overrides change the fingerprint")
    }

    func testAScenarioWithoutAFleetStillNeedsTraces() throws {
        XCTAssertThrowsError(try ScenarioLoader.parse("{ name: 'x' }", path: PackageRoot.path + "/scenarios/x.json5")) { error in
            XCTAssertTrue("\(error)".contains("missing required field 'traces'"), "\(error)")
        }
        XCTAssertNil(try ScenarioLoader.load(path: PackageRoot.path + "/scenarios/default.json5").fleet)
    }

    func testEveryMalformedFieldNamesItsPlace() throws {
        let texts = "texts: ['../traces/text/chat-session.txt']"
        let ok = "typists: [{ typist: 'chat' }], " + texts
        let cases: [(String, String)] = [
            (ok, "fleet: missing required field 'users'"),
            ("users: 0, " + ok, "fleet.users: must be between 1 and 10000000 (got 0)"),
            ("users: 2.5, " + ok, "fleet.users: "),
            ("users: 10, represents: 5, " + ok, "fleet.represents: must be at least users (10)"),
            ("users: 10, usres: 3, " + ok, "fleet.usres: unknown field 'usres'; did you mean 'users'?"),
            ("users: 10, " + texts, "fleet: missing required field 'typists'"),
            ("users: 10, typists: [{ typist: 'chat' }]", "fleet.typists: needs 'texts', beside 'typists' or in every typist"),
            ("users: 10, typists: 'chat', " + texts, "fleet.typists: expected an array of typists, found a string"),
            ("users: 10, typists: [{ typist: 'chatt' }], " + texts, "fleet.typists[0].typist: 'chatt' is neither a preset"),
            ("users: 10, typists: [{ typist: 'chat', weight: -1 }], " + texts, "fleet.typists[0].weight: must be greater than 0"),
            ("users: 10, typists: [{ typist: 'chat' }], texts: ['nowhere.txt']", "fleet.texts[0]: text "),
            ("users: 10, day: { hours: 25 }, " + ok, "fleet.day.hours: must be between 1 and 24 (got 25)"),
            ("users: 10, day: { start: -1 }, " + ok, "fleet.day.start: must be between 0 and 23 (got -1)"),
            ("users: 10, day: { activity: 'busy' }, " + ok, "fleet.day.activity: "),
            ("users: 10, day: { activity: [1, 2, 3] }, " + ok, "fleet.day.activity: expected 24 hourly weights (hours 0…23)"),
            ("users: 10, day: { activity: [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0] }, " + ok, "fleet.day.activity: needs some positive weight"),
            ("users: 10, day: { activity: [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,-1] }, " + ok, "fleet.day.activity[23]: "),
            ("users: 10, day: { activity: 'busy-hour', hours: 2 }, " + ok, "fleet.day.hours: the busy hour is one hour long (got 2)"),
            ("users: 10, day: { activity: 'busy-hour', start: 3 }, " + ok, "fleet.day.start: the busy hour starts at the curve's peak, hour 21"),
            ("users: 10, day: { hour: 3 }, " + ok, "fleet.day.hour: unknown field 'hour'; did you mean 'hours'?"),
            ("users: 10, sessions: { perUserDay: -1 }, " + ok, "fleet.sessions.perUserDay: must be between 0 and 1000 (got -1)"),
            ("users: 10, sessions: { perUserDay: { poisson: 2, fixed: 3 } }, " + ok,
             "fleet.sessions.perUserDay: give one of 'poisson', 'fixed' and 'geometric', not poisson and fixed"),
            ("users: 10, sessions: { perUserDay: {} }, " + ok, "fleet.sessions.perUserDay: expected a number (a Poisson mean) or one of"),
            ("users: 10, sessions: { perUserDay: { fixed: 2.5 } }, " + ok, "fleet.sessions.perUserDay.fixed: "),
            ("users: 10, sessions: { length: { geometric: 0.5 } }, " + ok, "fleet.sessions.length.geometric: must be between 1 and 1000 (got 0.5)"),
            ("users: 10, sessions: { length: { fixed: 0 } }, " + ok, "fleet.sessions.length: a session types at least one message"),
            ("users: 10, sessions: { lenght: 2 }, " + ok, "fleet.sessions.lenght: unknown field 'lenght'; did you mean 'length'?"),
            ("users: 10, networks: { wiif: 1 }, " + ok, "fleet.networks.wiif: unknown field 'wiif'; did you mean 'wifi'?"),
            ("users: 10, networks: { wifi: -1 }, " + ok, "fleet.networks.wifi: must not be negative (got -1)"),
            ("users: 10, networks: { wifi: 0 }, " + ok, "fleet.networks: needs a positive weight for some network preset"),
            ("users: 10, networks: ['wifi'], " + ok, "fleet.networks: expected an object, found an array"),
            ("users: 10, backend: { preset: 'hosted' }, " + ok, "fleet.backend.preset: "),
            ("users: 10, backend: { replicas: 0 }, " + ok, "fleet.backend.replicas: must be between 1 and 100000 (got 0)"),
            ("users: 10, backend: { maxBatch: 0 }, " + ok, "fleet.backend.maxBatch: must be between 1 and 4096 (got 0)"),
            ("users: 10, backend: { iteration: { baseMs: 0, perRequestMs: 0 } }, " + ok,
             "fleet.backend.iteration: an iteration takes time: baseMs + perRequestMs must be positive"),
            ("users: 10, backend: { iteration: { base: 1 } }, " + ok, "fleet.backend.iteration.base: unknown field 'base'; did you mean 'baseMs'?"),
            ("users: 10, backend: { queueLimit: -1 }, " + ok, "fleet.backend.queueLimit: must be between 0 and 10000000 (got -1)"),
            ("users: 10, backend: { admission: true }, " + ok, "fleet.backend.admission: true is not an admission rule"),
            ("users: 10, backend: { admission: { firstTokenTargetMs: 0 } }, " + ok, "fleet.backend.admission.firstTokenTargetMs: "),
            ("users: 10, backend: { admission: { status: 500 } }, " + ok, "fleet.backend.admission.status: must be 429 or 503 (got 500)"),
            ("users: 10, backend: { limits: { perUsr: {} } }, " + ok, "fleet.backend.limits.perUsr: unknown field 'perUsr'; did you mean 'perUser'?"),
            ("users: 10, backend: { replica: 2 }, " + ok, "fleet.backend.replica: unknown field 'replica'; did you mean 'replicas'?"),
            ("users: 10, partitions: 0, " + ok, "fleet.partitions: must be between 1 and 10000 (got 0)"),
            ("users: 10, partitions: [], " + ok, "fleet.partitions: needs at least one partition"),
            ("users: 10, partitions: [{ share: 0 }], " + ok, "fleet.partitions[0].share: must be greater than 0 (got 0)"),
            ("users: 10, partitions: [{ replicas: 0 }], " + ok, "fleet.partitions[0].replicas: must be between 1 and 100000 (got 0)"),
            ("users: 10, partitions: [{ shares: 1 }], " + ok, "fleet.partitions[0].shares: unknown field 'shares'; did you mean 'share'?"),
        ]
        for (body, message) in cases {
            do {
                _ = try FleetRunnerTests.scenario(body)
                XCTFail("accepted \(body)")
            } catch {
                let text = "\(error)"
                XCTAssertTrue(text.contains("fleet-test.json5:") && text.contains(": error: \(message)"), "\(body):\n\(text)")
                XCTAssertTrue(text.range(of: #"fleet-test\.json5:\d+:\d+: error"#, options: .regularExpression) != nil, "line and column: \(text)")
            }
        }
    }
}
