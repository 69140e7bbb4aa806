import Foundation
import XCTest

/// `keysim trace import`: a 136M Keystrokes file converted, its sections counted, a
/// malformed file an error that writes nothing.
extension TraceCommandTests {
    func testImportConvertsAndCountsSectionsThatDoNotRebuild() throws {
        let folder = try TemporaryFolder()
        let start: Int64 = 1_473_275_830_270
        func rows(_ section: Int, _ sentence: String, _ input: String, _ offset: Int64, _ keys: [String], _ id: Int) -> [String] {
            keys.enumerated().map { i, key in
                let press = start + offset + Int64(i) * 120
                return "7\t\(section)\t\(sentence)\t\(input)\t\(id + i)\t\(press)\t\(press + 70)\t\(key)\t\(65 + i)"
            }
        }
        var body = rows(1, "Hi all", "Hi all", 0, ["SHIFT", "H", "i", " ", "a", "k", "BKSP", "l", "l"], 1)
        body += rows(2, "Bye", "Bye!", 9_000, ["SHIFT", "B", "y", "e"], 50)
        let input = try folder.write("7_keystrokes.txt", ([
            "PARTICIPANT_ID\tTEST_SECTION_ID\tSENTENCE\tUSER_INPUT\tKEYSTROKE_ID\tPRESS_TIME\tRELEASE_TIME\tLETTER\tKEYCODE",
        ] + body.reversed()).joined(separator: "\n") + "\n")
        let broken = try folder.write("8_keystrokes.txt", "PARTICIPANT_ID\tTEST_SECTION_ID\n")
        let outDir = folder.path("out")
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)

        let result = try KeysimProcess.run(["trace", "import", "--format", "aalto136m", "--out-dir", outDir, "--zstd", input, broken])
        XCTAssertEqual(result.status, 2, "one file was malformed")
        XCTAssertEqual(result.stdout, """
        \(outDir)/7_keystrokes.jsonl.zst: 2 sections, 13 keystrokes, 17 events; 1 of 2 do not rebuild USER_INPUT; ignored keys: SHIFT 2
        imported 1 of 2 files: 2 sections, 1 do not rebuild USER_INPUT

        """)
        XCTAssertEqual(result.stderr, """
        \(input):2:1: warning: section 2 rebuilds "Bye", not its USER_INPUT "Bye!"
        \(broken):1:31: error: not a 136M Keystrokes file: the header row must name the columns PARTICIPANT_ID, TEST_SECTION_ID, SENTENCE, USER_INPUT, KEYSTROKE_ID, PRESS_TIME, RELEASE_TIME, LETTER, KEYCODE separated by tabs

        """)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outDir), ["7_keystrokes.jsonl.zst"], "nothing for the bad file")
        let validate = try KeysimProcess.run(["trace", "validate", outDir + "/7_keystrokes.jsonl.zst"])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        let stats = try KeysimProcess.run(["trace", "stats", "--json", outDir + "/7_keystrokes.jsonl.zst"])
        let object = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(object["durationMs"] as? Double, 9_430)
        XCTAssertEqual(object["keyTaps"] as? Int, 10)
        XCTAssertEqual(object["backspaceTaps"] as? Int, 1)
        XCTAssertEqual(object["fields"] as? Int, 2, "each section a field of its own")
        XCTAssertEqual(object["words"] as? Int, 3, "\"Hi all\" and \"Bye\", not glued together")
        XCTAssertEqual(object["wordErrorsLeft"] as? Int, 0)
    }
}
