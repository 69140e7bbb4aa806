import XCTest
@testable import Scenarios

/// The one JSON writer: layouts, escaping, number formats, streaming, and what the one scanner
/// reads back from it.
final class JSONWriterTests: XCTestCase {
    func testIndentedLayoutIsTheJSONDocumentsLayout() {
        var writer = JSONWriter(layout: .indented)
        writer.beginObject()
        writer.key("a"); writer.integer(1)
        writer.key("list"); writer.beginArray(); writer.bool(true); writer.null(); writer.endArray()
        writer.key("empty"); writer.beginObject(); writer.endObject()
        writer.key("none"); writer.beginArray(); writer.endArray()
        writer.key("nested"); writer.beginObject(); writer.key("x"); writer.string("y"); writer.endObject()
        writer.endObject()
        XCTAssertEqual(writer.text, """
            {
              "a": 1,
              "list": [
                true,
                null
              ],
              "empty": {},
              "none": [],
              "nested": {
                "x": "y"
              }
            }
            """)
    }

    func testCompactLayoutAndMembersSplicedIn() {
        var members = JSONWriter.objectMembers()
        members.key("parameters")
        members.beginArray(); members.string("a.b"); members.string("c"); members.endArray()
        XCTAssertEqual(members.text, #""parameters":["a.b","c"]"#)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("seed"); writer.integer(UInt64.max)
        writer.key("settings"); writer.raw(#"{"x":1}"#)
        writer.rawMembers(members.text)
        writer.rawMembers("")
        writer.endObject()
        XCTAssertEqual(writer.text, #"{"seed":18446744073709551615,"settings":{"x":1},"parameters":["a.b","c"]}"#)
        var only = JSONWriter()
        only.beginObject()
        only.rawMembers(#""a":1"#)
        only.endObject()
        XCTAssertEqual(only.text, #"{"a":1}"#)
    }

    func testEscapes() {
        XCTAssertEqual(JSONWriter.quoted("a\"b\\c\n\r\t\u{8}\u{C}\u{1}\u{1F}\u{7F}/é👍"),
                       #""a\"b\\c\n\r\t\b\f\u0001\u001f"# + "\u{7F}/é👍\"")
        XCTAssertEqual(JSONWriter.quoted("x\u{2028}y\u{2029}z"), #""x\u2028y\u2029z""#)
        XCTAssertEqual(JSONWriter.quoted("x\u{2028}y\u{2029}z", escapesLineSeparators: false), "\"x\u{2028}y\u{2029}z\"")
        XCTAssertEqual(JSONWriter.quoted("\u{2027}\u{202A}"), "\"\u{2027}\u{202A}\"", "only U+2028 and U+2029")
        var writer = JSONWriter()
        writer.beginObject(); writer.key("k\n\u{2028}"); writer.string(""); writer.endObject()
        XCTAssertEqual(writer.text, #"{"k\n\u2028":""}"#)
    }

    func testNumberFormats() {
        XCTAssertEqual(JSONWriter.number(3), "3")
        XCTAssertEqual(JSONWriter.number(-0.0), "0")
        XCTAssertEqual(JSONWriter.number(0.25), "0.25")
        XCTAssertEqual(JSONWriter.number(1e15), "1000000000000000.0")
        XCTAssertEqual(JSONWriter.number(1e16), "1e+16")
        XCTAssertEqual(JSONWriter.number(999_999_999_999_999), "999999999999999")
        XCTAssertEqual(JSONWriter.number(.nan), "null")
        XCTAssertEqual(JSONWriter.number(-.infinity), "null")
        XCTAssertEqual(JSONWriter.decimal(123_500_000, fractionDigits: 6), "123.5")
        XCTAssertEqual(JSONWriter.decimal(1, fractionDigits: 6), "0.000001")
        XCTAssertEqual(JSONWriter.decimal(-1_500_000, fractionDigits: 6), "-1.5")
        XCTAssertEqual(JSONWriter.decimal(.min, fractionDigits: 6), "-9223372036854.775808")
        XCTAssertEqual(JSONWriter.decimal(1_000, fractionDigits: 3, keepsTrailingZeros: true), "1.000")
        XCTAssertEqual(JSONWriter.decimal(-5, fractionDigits: 3, keepsTrailingZeros: true), "-0.005")
        XCTAssertEqual(JSONWriter.decimal(42, fractionDigits: 0), "42")
        XCTAssertEqual(JSONWriter.fixed(0.12345, fractionDigits: 4), "0.1235")
        XCTAssertEqual(JSONWriter.fixed(2, fractionDigits: 2), "2.00")
        XCTAssertEqual(JSONWriter.fixed(.nan, fractionDigits: 2), "null")
        var writer = JSONWriter()
        writer.beginArray()
        writer.double(40); writer.double(1e-05); writer.double(-0.0)
        writer.number(40); writer.integer(-7); writer.milliseconds(nanoseconds: 1_000_000_000)
        writer.endArray()
        XCTAssertEqual(writer.text, "[40.0,1e-05,-0.0,40,-7,1000]")
    }

    func testTakeStreamsADocumentInPieces() {
        var writer = JSONWriter()
        var pieces: [String] = []
        writer.beginArray()
        for index in 0..<3 {
            writer.integer(index)
            pieces.append(writer.take())
        }
        writer.endArray()
        pieces.append(writer.text)
        XCTAssertEqual(pieces, ["[0", ",1", ",2", "]"])
    }

    /// Documents written by the writer read back through the scanner as the same tree, in
    /// both syntaxes, for many shapes.
    func testWrittenDocumentsReadBack() throws {
        for seed: UInt64 in 1...300 {
            var random = SplitMix64(seed: seed)
            let value = randomValue(&random, depth: 0)
            var writer = JSONWriter(layout: seed % 2 == 0 ? .compact : .indented)
            writer.value(value)
            let text = writer.text
            for syntax in [JSONSyntax.strict, .json5] {
                let back = try JSON5Parser.parse(text, syntax: syntax)
                var again = JSONWriter(layout: seed % 2 == 0 ? .compact : .indented)
                again.value(back)
                XCTAssertEqual(again.text, text, "seed \(seed), \(syntax)")
            }
        }
    }

    private func randomValue(_ random: inout SplitMix64, depth: Int) -> ConfigValue {
        let strings = ["", "a", "é\"\\\n", "\u{2028}", "👍🏽", "\u{1}x", "key"]
        switch random.next() % (depth > 3 ? 4 : 6) {
        case 0: return ConfigValue(.bool(random.next() % 2 == 0))
        case 1:
            var value = ConfigValue(.number(Double(Int64(bitPattern: random.next()) >> 20)))
            value.integerLiteral = Int64(value.numberValue)
            return value
        case 2: return ConfigValue(.number(Double(Int64(bitPattern: random.next()) % 100_000) / 64))
        case 3: return ConfigValue(.string(strings[Int(random.next() % UInt64(strings.count))]))
        case 4: return ConfigValue(.array((0..<Int(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) }))
        default:
            let count = Int(random.next() % 4)
            return ConfigValue(.object((0..<count).map { index in
                ConfigValue.Member(key: "\(strings[Int(random.next() % UInt64(strings.count))])\(index)",
                                   value: randomValue(&random, depth: depth + 1))
            }))
        }
    }
}

private extension ConfigValue {
    var numberValue: Double {
        if case .number(let number) = kind { return number }
        return .nan
    }
}
