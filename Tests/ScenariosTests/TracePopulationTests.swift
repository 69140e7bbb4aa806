import Foundation
import XCTest
import Sim
@testable import Scenarios

/// Populations among a scenario's traces: reading them, what each replication draws, and
/// that a drawn session is the very trace its command line writes.
final class TracePopulationTests: XCTestCase {
    static let texts = HumanTypistTests.root.appendingPathComponent("traces/text").path

    /// A scenario in `fixture` with one population entry, `members` its inside.
    func scenario(_ fixture: ScenarioFixture, _ members: String, extra: String = "") throws -> Scenario {
        let path = try fixture.write("p.json5", "{traces: [{population: {\(members)}}]\(extra)}")
        return try ScenarioLoader.load(path: path)
    }

    func population(_ scenario: Scenario) throws -> TracePopulation {
        guard case .population(let population) = scenario.traceEntries[0] else { throw XCTSkip("not a population") }
        return population
    }

    let twoTexts = "texts: ['\(texts)/chat-session.txt', '\(texts)/short-messages.txt']"

    func testTypistsWithWeightsSpeedsAndTexts() throws {
        let fixture = try ScenarioFixture()
        let scenario = try scenario(fixture, """
        typists: [{typist: 'chat', weight: 3, wpm: {mean: 36.2, sd: 13.2}}, {typist: 'email', wpm: 45,
                   texts: ['\(Self.texts)/english-messages.txt']}], \(twoTexts)
        """)
        let population = try population(scenario)
        XCTAssertEqual(scenario.traces, ["population 1 (2 typists, 3 texts)"])
        XCTAssertTrue(scenario.hasPopulation)
        guard case .typists(let typists) = population.members else { return XCTFail("typists") }
        XCTAssertEqual(typists.map(\.name), ["chat", "email"])
        XCTAssertEqual(typists.map(\.weight), [3, 1])
        XCTAssertEqual(typists.map(\.wordsPerMinute), [.lognormal(mean: 36.2, sd: 13.2), .fixed(45)])
        XCTAssertEqual(typists[0].texts.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["chat-session.txt", "short-messages.txt"])
        XCTAssertEqual(typists[1].texts.count, 1)
        XCTAssertEqual(population.key.count, 16)
    }

    func testAFolderOrAListOfTraces() throws {
        let fixture = try ScenarioFixture()
        try FileManager.default.createDirectory(atPath: fixture.directory + "/people", withIntermediateDirectories: true)
        let trace = try String(contentsOfFile: fixture.directory + "/trace.jsonl", encoding: .utf8)
        for name in ["b.jsonl", "a.jsonl", "notes.txt"] { try fixture.write("people/" + name, trace) }
        let folder = try population(try scenario(fixture, "folder: 'people'"))
        XCTAssertEqual(folder.members, .traces([fixture.directory + "/people/a.jsonl", fixture.directory + "/people/b.jsonl"]))
        let list = try population(try scenario(fixture, "traces: ['people/b.jsonl', 'trace.jsonl']"))
        XCTAssertEqual(list.members, .traces([fixture.directory + "/people/b.jsonl", fixture.directory + "/trace.jsonl"]))
        // Keyed by content: the same bytes under other names draw the same.
        let same = try population(try scenario(fixture, "traces: ['people/a.jsonl', 'people/b.jsonl']"))
        XCTAssertEqual(folder.key, same.key)
        try fixture.write("other.jsonl", trace.replacingOccurrences(of: "\"i\"", with: "\"o\""))
        let other = try population(try scenario(fixture, "traces: ['people/a.jsonl', 'other.jsonl']"))
        XCTAssertNotEqual(folder.key, other.key)
    }

    /// `texts` as one file, a folder of `.txt` files (in byte order of their names), or a
    /// list mixing both.
    func testTextsFromAFileOrAFolder() throws {
        let fixture = try ScenarioFixture()
        try FileManager.default.createDirectory(atPath: fixture.directory + "/texts", withIntermediateDirectories: true)
        let message = try String(contentsOfFile: Self.texts + "/short-messages.txt", encoding: .utf8)
        for name in ["b.txt", "a.txt", "notes.md"] { try fixture.write("texts/" + name, message) }
        func names(_ texts: String) throws -> [String] {
            guard case .typists(let typists) = try population(try scenario(fixture, "typists: [{typist: 'chat'}], texts: \(texts)")).members
            else { throw XCTSkip("not typists") }
            return typists[0].texts.map { String($0.path.dropFirst(fixture.directory.count + 1)) }
        }
        XCTAssertEqual(try names("'texts'"), ["texts/a.txt", "texts/b.txt"])
        XCTAssertEqual(try names("'texts/'"), ["texts/a.txt", "texts/b.txt"])
        XCTAssertEqual(try names("'texts/b.txt'"), ["texts/b.txt"])
        XCTAssertEqual(try names("['texts/b.txt', 'texts']"), ["texts/b.txt", "texts/a.txt", "texts/b.txt"])
        try FileManager.default.createDirectory(atPath: fixture.directory + "/none", withIntermediateDirectories: true)
        guard let error = try fixture.loadError("{traces: [{population: {typists: [{typist: 'chat'}], texts: ['none']}}]}") else {
            return XCTFail("accepted an empty folder of texts")
        }
        XCTAssertTrue(error.description.contains("error: traces[0].population.texts[0]: \(fixture.directory)/none holds no texts (.txt files)"), "\(error)")
    }

    func testBadPopulationsNameTheField() throws {
        let fixture = try ScenarioFixture()
        try FileManager.default.createDirectory(atPath: fixture.directory + "/empty", withIntermediateDirectories: true)
        let cases: [(String, String)] = [
            ("", "traces[0].population: needs 'typists' (with 'texts'), 'traces' or 'folder'"),
            ("typists: [{typist: 'chat'}], folder: 'x'", "traces[0].population: give one of 'typists', 'traces' and 'folder', not typists and folder"),
            ("typists: [{typist: 'chat'}]", "traces[0].population.typists[0]: needs 'texts', here or beside 'typists' for every typist"),
            ("typists: [], \(twoTexts)", "traces[0].population.typists: needs at least one typist"),
            ("typists: [{typist: 'chatt'}], \(twoTexts)",
             "traces[0].population.typists[0].typist: 'chatt' is neither a preset (chat, email, copying) nor a profile file (typist.json5); did you mean 'chat'?"),
            ("typists: [{typist: 'nobody.json5'}], \(twoTexts)", "traces[0].population.typists[0].typist: typist profile "),
            ("typists: [{typist: 'chat', weight: 0}], \(twoTexts)", "traces[0].population.typists[0].weight: must be greater than 0 (got 0)"),
            ("typists: [{typist: 'chat', wpm: 300}], \(twoTexts)", "traces[0].population.typists[0].wpm: must be between 5 and 250 (got 300)"),
            ("typists: [{typist: 'chat', wpm: {mean: 40}}], \(twoTexts)", "traces[0].population.typists[0].wpm: missing required field 'sd'"),
            ("typists: [{typist: 'chat'}], texts: ['missing.txt']", "traces[0].population.texts[0]: text \(fixture.directory)/missing.txt"),
            ("typists: [{typist: 'chat'}], texts: []", "traces[0].population.texts: needs at least one text"),
            ("folder: 'empty'", "traces[0].population.folder: \(fixture.directory)/empty holds no traces (.jsonl or .jsonl.zst files)"),
            ("folder: 'nowhere'", "traces[0].population.folder: folder not found: \(fixture.directory)/nowhere"),
            ("traces: ['gone.jsonl']", "traces[0].population.traces[0]: trace file not found: \(fixture.directory)/gone.jsonl"),
            ("traces: ['trace.jsonl'], texts: []", "traces[0].population.texts: unknown field 'texts'"),
        ]
        for (members, message) in cases {
            guard let error = try fixture.loadError("{traces: [{population: {\(members)}}]}") else { XCTFail("accepted \(members)"); continue }
            XCTAssertTrue(error.description.contains("error: \(message)"), "\(members): \(error)")
        }
        guard let other = try fixture.loadError("{traces: [{population: {folder: 'empty'}, more: 1}]}") else { return XCTFail("accepted") }
        XCTAssertTrue(other.description.contains("error: traces[0].more: unknown field 'more'"), "\(other)")
    }

    /// Common random numbers: a replication draws the same session whatever the policy;
    /// two replications draw independently.
    func testReplicationsDrawApartAndPoliciesAlike() throws {
        let fixture = try ScenarioFixture()
        let path = try fixture.write("p.json5", """
        {traces: [{population: {typists: [{typist: 'chat', wpm: {mean: 36.2, sd: 13.2}}, {typist: 'email'}], \(twoTexts)}}],
         policies: {seed: {}, learn: {debounce: {policy: 'adaptive'}}}}
        """)
        let a = try population(try ScenarioLoader.load(path: path, policy: "seed"))
        let b = try population(try ScenarioLoader.load(path: path, policy: "learn"))
        for seed in UInt64(1)...20 {
            var draws: [TracePopulation.Draw] = []
            for replication in 0..<8 {
                let draw = a.draw(seed: seed, replication: replication)
                XCTAssertEqual(draw, b.draw(seed: seed, replication: replication), "seed \(seed), replication \(replication)")
                draws.append(draw)
            }
            for (i, draw) in draws.enumerated() {
                XCTAssertFalse(draws[(i + 1)...].contains(draw), "seed \(seed): replication \(i) drawn again")
            }
        }
    }

    /// Weights and speeds come out as asked, over many draws.
    func testWeightsAndSpeedsOverManyDraws() throws {
        let fixture = try ScenarioFixture()
        let population = try population(try scenario(fixture, """
        typists: [{typist: 'chat', weight: 3, wpm: {mean: 36.2, sd: 13.2}}, {typist: 'email', wpm: 40}], \(twoTexts)
        """))
        for seed in UInt64(1)...3 {
            var chat: [Double] = []
            var texts = 0
            let n = 4000
            for replication in 0..<n {
                guard case .synthesis(let synthesis, let text) = population.draw(seed: seed, replication: replication) else { return XCTFail() }
                if synthesis.typist == "chat" { chat.append(synthesis.wordsPerMinute!) } else { XCTAssertEqual(synthesis.wordsPerMinute, 40) }
                if text.path.hasSuffix("chat-session.txt") { texts += 1 }
            }
            XCTAssertEqual(Double(chat.count) / Double(n), 0.75, accuracy: 0.025, "seed \(seed)")
            XCTAssertEqual(Double(texts) / Double(n), 0.5, accuracy: 0.025, "seed \(seed)")
            let mean = chat.reduce(0, +) / Double(chat.count)
            let sd = (chat.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(chat.count - 1)).squareRoot()
            XCTAssertEqual(mean, 36.2, accuracy: 0.8, "seed \(seed)")
            XCTAssertEqual(sd, 13.2, accuracy: 1.0, "seed \(seed)")
            XCTAssertTrue(chat.allSatisfy { $0 >= 5 && $0 <= 250 && ($0 * 10).rounded() == $0 * 10 }, "seed \(seed)")
        }
    }

    /// A synthesised session is the trace its command writes, and is keyed as that file is:
    /// the run replays exactly as the file would.
    func testASessionIsTheTraceItsCommandWrites() throws {
        let fixture = try ScenarioFixture()
        let population = try population(try scenario(fixture, "typists: [{typist: 'chat', wpm: {mean: 36.2, sd: 13.2}}], \(twoTexts)"))
        guard case .synthesis(let synthesis, let text) = population.draw(seed: 42, replication: 3) else { return XCTFail() }
        let command = TracePopulation.Draw.synthesis(synthesis, text: text).description(populationLabel: population.label)
        XCTAssertTrue(command.hasPrefix("population 1 (1 typist, 2 texts): keysim trace synth --text \(text.path) --typist chat --seed \(synthesis.seed) --wpm "), command)
        let (header, events) = synthesis.trace(of: text.script)
        XCTAssertEqual(header.source, synthesis.source)
        XCTAssertEqual(header.name, URL(fileURLWithPath: text.path).deletingPathExtension().lastPathComponent)
        let file = fixture.directory + "/session.jsonl"
        let writer = try TraceFileWriter(path: file, header: header)
        for event in events { try writer.write(event) }
        try writer.commit()
        XCTAssertEqual(try ScenarioRunner.traceKey(header: header, events: events), try ScenarioRunner.traceKey(file))
        // The population's run of replication 3 is the file's run of replication 3.
        var fromPopulation = try scenario(fixture, "typists: [{typist: 'chat', wpm: {mean: 36.2, sd: 13.2}}], \(twoTexts)", extra: ", seed: 42")
        var fromFile = fromPopulation
        fromFile.traceEntries = [.file(file)]
        fromPopulation.replications = 4
        let item = WorkItem(replication: 3, traceIndex: 0)
        let a = try ScenarioRunner.runOne(fromPopulation, item: item)
        let b = try ScenarioRunner.runOne(fromFile, item: item)
        XCTAssertEqual(a.summary, b.summary)
        XCTAssertEqual(a.observations.requests.map(\.sent), b.observations.requests.map(\.sent))
        XCTAssertEqual(a.tracePath, command)
    }
}
