import XCTest
import Sim
@testable import Scenarios

final class ExtensionConfigTests: XCTestCase {
    func testMemoryLanguagesAndTokenFieldsAreRead() throws {
        let fixture = try ScenarioFixture()
        let path = try fixture.write("s.json5", """
        {traces: ['trace.jsonl'],
         memory: {limitMb: 56, baseMb: 20, dictionaryMb: 6, languageFileMb: 7.6, modelMb: 10, cacheMbPerWord: 0.02, cacheCapMb: 4,
                  keepPreviousLanguage: false, restart: {type: 'constant', valueMs: 500}},
         languages: {bundled: 'en', verify: false, goodKbps: 1000, badKbps: 100, defaultSizeBytes: 5000000,
                     manifest: [{language: 'ru', sizeBytes: 7969177, sha256: 'c948b215ffc50d101e2914daf8fb0b6ddde1eb2109d814e43fafd291f3a39ebd'}]},
         token: {rotationPeriodMs: 30000, graceMs: 1000, refresh: {type: 'constant', valueMs: 2000}, logoutAtMs: 90000}}
        """)
        let keyboard = try ScenarioLoader.load(path: path).keyboard
        XCTAssertEqual(keyboard.memory.limitMegabytes, 56)
        XCTAssertEqual(keyboard.memory.cacheCapMegabytes, 4)
        XCTAssertFalse(keyboard.memory.keepPreviousLanguage)
        XCTAssertEqual(keyboard.memory.restart, .constant(500))
        XCTAssertEqual(keyboard.languages.bundled, "en")
        XCTAssertFalse(keyboard.languages.verify)
        XCTAssertEqual(keyboard.languages.manifest.map(\.language), ["ru"])
        XCTAssertEqual(keyboard.languages.entry(for: "de").sizeBytes, 5_000_000)
        XCTAssertTrue(keyboard.token.enabled)
        XCTAssertEqual(keyboard.token.rotationPeriod, .milliseconds(30_000))
        XCTAssertEqual(keyboard.token.grace, .milliseconds(1_000))
        XCTAssertEqual(keyboard.token.logoutAt, SimTime(milliseconds: 90_000))
    }

    func testTheDefaultsLeaveTheTokenOffAndAManifestDigestOptional() throws {
        let fixture = try ScenarioFixture()
        let plain = try ScenarioLoader.load(path: try fixture.write("a.json5", "{traces: ['trace.jsonl']}")).keyboard
        XCTAssertFalse(plain.token.enabled)
        XCTAssertEqual(plain.memory, MemoryConfig())
        let digestless = try ScenarioLoader.load(path: try fixture.write("b.json5", """
            {traces: ['trace.jsonl'], languages: {manifest: [{language: 'ru', sizeBytes: 1000}]}, token: {}}
            """)).keyboard
        XCTAssertEqual(digestless.languages.manifest.first?.sha256, LanguageFileContent.digest(language: "ru", bytes: 1000))
        XCTAssertTrue(digestless.token.enabled)
    }

    func testBadFieldsAreReportedWithTheirPaths() throws {
        let fixture = try ScenarioFixture()
        let cases: [(String, String)] = [
            ("{traces: ['trace.jsonl'], memory: {limitMb: 0}}", "memory.limitMb: must be greater than 0"),
            ("{traces: ['trace.jsonl'], memory: {limitMb: 40}}", "memory: base, dictionary, model and one language file"),
            ("{traces: ['trace.jsonl'], memory: {cacheMbPerWrd: 1}}", "memory.cacheMbPerWrd: unknown field 'cacheMbPerWrd'; did you mean 'cacheMbPerWord'?"),
            ("{traces: ['trace.jsonl'], memory: {restart: {type: 'cauchy'}}}", "memory.restart.type: unknown value 'cauchy'"),
            ("{traces: ['trace.jsonl'], languages: {verify: 'yes'}}", "languages.verify: expected true or false, found a string"),
            ("{traces: ['trace.jsonl'], languages: {manifest: [{language: 'ru'}]}}", "languages.manifest[0]: missing required field 'sizeBytes'"),
            ("{traces: ['trace.jsonl'], languages: {manifest: [{language: 'ru', sizeBytes: 10, sha256: 'abc'}]}}",
             "languages.manifest[0].sha256: expected 64 lower-case hex digits"),
            ("{traces: ['trace.jsonl'], languages: {manifest: [{language: 'ru', sizeBytes: 10, sha256: '\(String(repeating: "0", count: 64))'}]}}",
             "languages.manifest[0].sha256: does not match the modelled content of 'ru' with 10 bytes"),
            ("{traces: ['trace.jsonl'], languages: {manifest: [{language: 'ru', sizeBytes: 10}, {language: 'ru', sizeBytes: 20}]}}",
             "languages.manifest[1].language: 'ru' is listed twice"),
            ("{traces: ['trace.jsonl'], token: {rotationPeriodMs: 10}}", "token.rotationPeriodMs: must be between 1000 and"),
            ("{traces: ['trace.jsonl'], token: {rotationPeriodMs: 5000, graceMs: 5000}}", "token.graceMs: must be shorter than rotationPeriodMs"),
            ("{traces: ['trace.jsonl'], token: {logoutAtMs: -1}}", "token.logoutAtMs: must not be negative"),
        ]
        for (text, expected) in cases {
            guard let error = try fixture.loadError(text) else { XCTFail("accepted: \(text)"); continue }
            XCTAssertTrue(error.description.contains(expected), "\(text)\n got: \(error)\n want: \(expected)")
        }
    }

    func testErrorsPointAtTheFieldAtFault() throws {
        let fixture = try ScenarioFixture()
        // (scenario, the whole diagnostic after the file name)
        let cases: [(String, String)] = [
            // The second entry's language, not the `languages` object.
            ("{traces: ['trace.jsonl'],\n languages: {manifest: [{language: 'ru', sizeBytes: 10},\n   {language: 'ru', sizeBytes: 20}]}}",
             ":3:15: error: languages.manifest[1].language: 'ru' is listed twice (first at manifest[0])"),
            // Languages are the BCP 47 tags of the trace's `language` events.
            ("{traces: ['trace.jsonl'], languages: {bundled: ''}}",
             ":1:48: error: languages.bundled: expected a BCP 47 language tag such as en or pt-BR, not ''"),
            ("{traces: ['trace.jsonl'], languages: {manifest: [{language: 'not a tag', sizeBytes: 10}]}}",
             ":1:61: error: languages.manifest[0].language: expected a BCP 47 language tag such as en or pt-BR, not 'not a tag'"),
            // A rotation period shorter than the default grace blames the field that was written.
            ("{traces: ['trace.jsonl'], token: {rotationPeriodMs: 30000}}",
             ":1:53: error: token.rotationPeriodMs: must be longer than graceMs (60000 unless set); set a shorter graceMs"),
            ("{traces: ['trace.jsonl'], token: {rotationPeriodMs: 5000, graceMs: 5000}}",
             ":1:68: error: token.graceMs: must be shorter than rotationPeriodMs (5000)"),
        ]
        for (text, expected) in cases {
            guard let error = try fixture.loadError(text) else { XCTFail("accepted: \(text)"); continue }
            XCTAssertEqual(error.description, fixture.directory + "/s.json5" + expected, text)
        }
        let tagged = try fixture.write("ok.json5", "{traces: ['trace.jsonl'], languages: {bundled: 'pt-BR', manifest: [{language: 'sr-Latn', sizeBytes: 10}]}}")
        XCTAssertEqual(try ScenarioLoader.load(path: tagged).keyboard.languages.bundled, "pt-BR")
    }

    func testTheBundledScenariosLoadWithEveryPolicy() throws {
        let root = PackageRoot.url
        for (name, policies) in [("language-files", ["verify-on", "verify-off", "keep-both"]), ("device-token", ["short-grace", "long-grace", "logout"])] {
            let path = root.appendingPathComponent("scenarios/\(name).json5").path
            for policy in policies { XCTAssertNoThrow(try ScenarioLoader.load(path: path, policy: policy), "\(name) / \(policy)") }
        }
    }
}
