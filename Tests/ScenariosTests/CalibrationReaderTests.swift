import Foundation
@testable import Scenarios
import Sim
import XCTest

/// The calibration inputs, each in its exact format, hand-made: what is read, and every
/// malformed input an error naming the file, line and (where the format has one) column.
final class CalibrationReaderTests: XCTestCase {
    private var directory: TemporaryFolder!
    private var folder: URL { directory.url }

    override func setUpWithError() throws { directory = try TemporaryFolder(prefix: "keysim-calibration") }
    override func tearDown() { directory = nil }

    private func write(_ name: String, _ text: String) throws -> String { try directory.write(name, text) }

    private func assertError(_ body: () throws -> Void, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            try body()
            XCTFail("no error; expected \(expected)", file: file, line: line)
        } catch let error as InputError {
            XCTAssertTrue(error.description.hasSuffix(expected), "\(error.description) does not end with \(expected)", file: file, line: line)
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
    }

    // MARK: Instruments

    /// An export in the shape xctrace writes: values written once with an id and referenced
    /// later (in other rows, nested elements too), sentinels for missing values, an interval
    /// that never ended.
    static let instrumentsXML = """
    <?xml version="1.0"?>
    <trace-query-result>
    <node xpath='//trace-toc[1]/run[1]/data[1]/table[4]'><schema name="os-signpost-interval"><col><mnemonic>start</mnemonic><name>Start</name></col><col><mnemonic>duration</mnemonic><name>Duration</name></col><col><mnemonic>process</mnemonic><name>Process</name></col><col><mnemonic>name</mnemonic><name>Name</name></col><col><mnemonic>start-message</mnemonic><name>Start Message</name></col></schema>
    <row><start-time id="1" fmt="00:01.000.000">1000000000</start-time><duration id="2" fmt="3.50 ms">3500000</duration><process id="3" fmt="Keyboard (81)"><pid id="4" fmt="81">81</pid></process><string id="5" fmt="Lookup">Lookup</string><sentinel/></row>
    <row><start-time id="6" fmt="00:01.100.000">1100000000</start-time><duration ref="2"/><process ref="3"/><string ref="5"/><string id="7" fmt="hello">hello</string></row>
    <row><start-time id="8" fmt="00:01.200.000">1200000000</start-time><duration id="9" fmt="1.25 ms">1250000</duration><process ref="3"/><string id="10" fmt="Draw">Draw</string><string ref="7"/></row>
    <row><start-time id="11" fmt="00:01.300.000">1300000000</start-time><sentinel/><process ref="3"/><string ref="5"/><sentinel/></row>
    <row><start-time id="12" fmt="00:01.400.000">1400000000</start-time><duration id="13" fmt="4.00 ms">4000000</duration><process ref="3"/><string ref="5"/><sentinel/></row>
    </node></trace-query-result>
    """

    func testInstrumentsExportResolvesIdsRefsAndSentinels() throws {
        let path = try write("export.xml", Self.instrumentsXML)
        let reading = try CostInputReader.read(path: path)
        XCTAssertEqual(reading.format, .instruments)
        XCTAssertEqual(reading.series.map(\.name), ["Draw", "Lookup"])
        XCTAssertEqual(reading.series[0].samplesMs, [1.25])
        XCTAssertEqual(reading.series[1].samplesMs, [3.5, 3.5, 4.0])
        XCTAssertEqual(reading.remarks, ["1 interval(s) without an end (a sentinel duration) left out"])
        XCTAssertEqual(reading.series[1].sources, ["\(path) (instruments, \"Lookup\", 3)"])
    }

    func testInstrumentsAcceptsTheSchemaNamesXcodeHasUsed() throws {
        for name in InstrumentsReader.schemaNames {
            let path = try write("export-\(name).xml", Self.instrumentsXML.replacingOccurrences(of: "os-signpost-interval", with: name))
            XCTAssertEqual(try InstrumentsReader.read(path: path).series.map(\.samplesMs.count), [1, 3], name)
        }
    }

    func testMalformedInstrumentsExportsAreErrorsWithLineAndColumn() throws {
        let other = try write("other.xml", Self.instrumentsXML.replacingOccurrences(of: "os-signpost-interval", with: "time-profile"))
        assertError({ _ = try InstrumentsReader.read(path: other) }, "error: table schema \"time-profile\" is not a signpost interval table (expected os-signpost-interval, os-signpost-intervals, OSSignpostIntervals; export with --xpath '/trace-toc/run/data/table[@schema=\"os-signpost-interval\"]')")
        let badRef = try write("ref.xml", Self.instrumentsXML.replacingOccurrences(of: "<duration ref=\"2\"/>", with: "<duration ref=\"99\"/>"))
        assertError({ _ = try InstrumentsReader.read(path: badRef) }, "ref.xml:5:68: error: ref=\"99\" names no earlier id")
        let badDuration = try write("duration.xml", Self.instrumentsXML.replacingOccurrences(of: ">1250000<", with: ">1.25 ms<"))
        assertError({ _ = try InstrumentsReader.read(path: badDuration) }, "duration.xml:6:68: error: duration \"1.25 ms\" is not a non-negative integer of nanoseconds")
        let broken = try write("broken.xml", String(Self.instrumentsXML.dropLast(30)))
        do {
            _ = try InstrumentsReader.read(path: broken)
            XCTFail("truncated XML read")
        } catch {
            XCTAssertEqual(error.file, broken)
            XCTAssertNotNil(error.line)
            XCTAssertNotNil(error.column)
            XCTAssertTrue(error.message.hasPrefix("not well-formed XML"), error.message)
        }
        let noTable = try write("empty.xml", "<?xml version=\"1.0\"?>\n<trace-query-result></trace-query-result>\n")
        assertError({ _ = try InstrumentsReader.read(path: noTable) }, "empty.xml: error: no signpost interval table (expected a trace-query-result with a schema named os-signpost-interval, os-signpost-intervals, OSSignpostIntervals)")
        let short = try write("short.xml", Self.instrumentsXML.replacingOccurrences(of: "<string ref=\"7\"/></row>", with: "</row>"))
        assertError({ _ = try InstrumentsReader.read(path: short) }, "short.xml:6:1: error: a row with 4 values where the schema has 5 columns")
    }

    // MARK: Unified log

    /// Two signposts interleaved (the second begins before the first ends), the same
    /// identifier reused by two names, a 64-bit identifier a double would round, a point
    /// event, an end without its begin, a begin never ended, and a line that is no signpost.
    static let ndjson = """
    Filtering the log data using "subsystem == \"com.example.keyboard\""
    {"traceID":1,"eventMessage":"","eventType":"signpostEvent","signpostID":17216892719917625,"signpostName":"lookup","signpostType":"begin","timestamp":"2024-05-01 10:11:12.100000-0700","processID":81}
    {"traceID":2,"eventMessage":"","eventType":"signpostEvent","signpostID":17216892719917626,"signpostName":"lookup","signpostType":"begin","timestamp":"2024-05-01 10:11:12.101000-0700","processID":81}
    {"traceID":3,"eventMessage":"hello","eventType":"logEvent","timestamp":"2024-05-01 10:11:12.102000-0700","processID":81}
    {"traceID":4,"eventMessage":"","eventType":"signpostEvent","signpostID":17216892719917625,"signpostName":"lookup","signpostType":"end","timestamp":"2024-05-01 10:11:12.104500-0700","processID":81}
    {"traceID":5,"eventMessage":"","eventType":"signpostEvent","signpostID":17216892719917625,"signpostName":"draw","signpostType":"begin","timestamp":"2024-05-01 10:11:12.105000-0700","processID":81}
    {"traceID":6,"eventMessage":"","eventType":"signpostEvent","signpostID":17216892719917626,"signpostName":"lookup","signpostType":"end","timestamp":"2024-05-01 10:11:12.111000-0700","processID":81}
    {"traceID":7,"eventMessage":"","eventType":"signpostEvent","signpostID":17216892719917625,"signpostName":"draw","signpostType":"end","timestamp":"2024-05-01 10:11:12.105800-0700","processID":81}
    {"traceID":8,"eventMessage":"","eventType":"signpostEvent","signpostID":5,"signpostName":"tap","signpostType":"event","timestamp":"2024-05-01 10:11:12.106000-0700","processID":81}
    {"traceID":9,"eventMessage":"","eventType":"signpostEvent","signpostID":6,"signpostName":"draw","signpostType":"end","timestamp":"2024-05-01 10:11:12.107000-0700","processID":81}
    {"traceID":10,"eventMessage":"","eventType":"signpostEvent","signpostID":7,"signpostName":"draw","signpostType":"begin","timestamp":"2024-05-01 10:11:12.108000-0700","processID":81}

    """

    func testUnifiedLogPairsInterleavedSignpostsById() throws {
        let path = try write("log.ndjson", Self.ndjson)
        let reading = try CostInputReader.read(path: path)
        XCTAssertEqual(reading.format, .unifiedLog)
        XCTAssertEqual(reading.series.map(\.name), ["draw", "lookup"])
        XCTAssertEqual(reading.series[0].samplesMs, [0.8])
        XCTAssertEqual(reading.series[1].samplesMs, [4.5, 10])
        XCTAssertEqual(reading.remarks, [
            "1 signpost interval(s) begun but never ended, left out",
            "1 signpost end(s) without a begin, left out",
            "3 line(s) that are not signpost intervals skipped",
        ])
    }

    func testUnifiedLogTimestampsAcrossZonesAndDays() {
        let a = SignpostLogReader.microseconds("2024-12-31 23:59:59.999999+0000")!
        let b = SignpostLogReader.microseconds("2025-01-01 01:00:00.000001+0100")!
        XCTAssertEqual(b - a, 2)
        XCTAssertEqual(SignpostLogReader.microseconds("1970-01-01 00:00:01.5-0000"), 1_500_000)
        XCTAssertNil(SignpostLogReader.microseconds("2024-13-01 00:00:00.0+0000"))
        XCTAssertNil(SignpostLogReader.microseconds("yesterday"))
    }

    func testMalformedUnifiedLogLinesAreErrorsWithLineAndColumn() throws {
        let broken = try write("broken.ndjson", Self.ndjson.replacingOccurrences(of: "\"traceID\":4,", with: "\"traceID\":4,,"))
        assertError({ _ = try SignpostLogReader.read(path: broken) }, "broken.ndjson:5:14: error: not a JSON object: unexpected ',', expected a key or '}'")
        let stamp = try write("stamp.ndjson", Self.ndjson.replacingOccurrences(of: "2024-05-01 10:11:12.104500-0700", with: "10:11"))
        assertError({ _ = try SignpostLogReader.read(path: stamp) }, "stamp.ndjson:5:148: error: \"timestamp\" must look like 2024-05-01 10:11:12.345678-0700, found \"10:11\"")
        let type = try write("type.ndjson", Self.ndjson.replacingOccurrences(of: "\"signpostType\":\"end\",\"timestamp\":\"2024-05-01 10:11:12.104500", with: "\"signpostType\":\"stop\",\"timestamp\":\"2024-05-01 10:11:12.104500"))
        assertError({ _ = try SignpostLogReader.read(path: type) }, "type.ndjson:5:130: error: \"signpostType\" must be begin, end or event, found \"stop\"")
        let backwards = try write("backwards.ndjson", Self.ndjson.replacingOccurrences(of: "12.104500", with: "12.000500"))
        assertError({ _ = try SignpostLogReader.read(path: backwards) }, "backwards.ndjson:5:148: error: signpost 17216892719917625 \"lookup\" ends before it begins (line 2)")
        let array = try write("array.ndjson", "[1, 2]\n")
        assertError({ _ = try SignpostLogReader.read(path: array) }, "array.ndjson:1:1: error: expected a JSON object, found an array")
    }

    // MARK: MetricKit

    static let metricKit = """
    {
      "timeStampBegin": "2024-05-01 00:00:00",
      "metaData": {"appBuildVersion": "7", "osVersion": "iPhone OS 17.4 (21E219)", "deviceType": "iPhone15,2"},
      "signpostMetrics": [
        {
          "signpostIntervalData": {
            "histogrammedSignpostDurations": {
              "histogramNumBuckets": 3,
              "histogramValue": {
                "1": {"bucketCount": 60, "bucketStart": "10 ms", "bucketEnd": "20 ms"},
                "0": {"bucketCount": 50, "bucketStart": "0 ms", "bucketEnd": "10 ms"},
                "2": {"bucketCount": 30, "bucketStart": "20 ms", "bucketEnd": "1.5 sec"}
              }
            },
            "signpostCumulativeCPUTime": "30,000 ms",
            "signpostAverageMemory": "100,000 kB"
          },
          "signpostCategory": "Keyboard",
          "signpostName": "Rerank",
          "totalSignpostCount": 140
        },
        {
          "signpostCategory": "Keyboard",
          "signpostName": "Launch",
          "totalSignpostCount": 3
        }
      ]
    }
    """

    func testMetricKitHistogramsBecomeCensoredBuckets() throws {
        let path = try write("payload.json", Self.metricKit)
        let reading = try CostInputReader.read(path: path)
        XCTAssertEqual(reading.format, .metricKit)
        XCTAssertEqual(reading.series.map(\.name), ["Rerank"])
        XCTAssertEqual(reading.series[0].buckets, [
            CostBucket(lowerMs: 0, upperMs: 10, count: 50), CostBucket(lowerMs: 10, upperMs: 20, count: 60),
            CostBucket(lowerMs: 20, upperMs: 1500, count: 30),
        ])
        XCTAssertTrue(reading.series[0].isCensored)
        XCTAssertEqual(reading.remarks, ["1 signpost metric(s) without a duration histogram skipped"])
        // An array of payloads, histogramValue as an array.
        let array = try write("payloads.json", "[{\"signpostMetrics\": [{\"signpostName\": \"a\", \"signpostIntervalData\": {\"histogrammedSignpostDurations\": {\"histogramValue\": [{\"bucketCount\": 2, \"bucketStart\": \"1,000 µs\", \"bucketEnd\": \"2 ms\"}]}}}]}]")
        XCTAssertEqual(try MetricKitReader.read(path: array).series[0].buckets, [CostBucket(lowerMs: 1, upperMs: 2, count: 2)])
    }

    func testMalformedMetricKitPayloadsAreErrorsWithLineAndColumn() throws {
        let unit = try write("unit.json", Self.metricKit.replacingOccurrences(of: "\"20 ms\"}", with: "\"20 furlongs\"}"))
        assertError({ _ = try MetricKitReader.read(path: unit) }, "unit.json:10:75: error: \"bucketEnd\" must be a number and a unit (ns, us, µs, μs, ms, s, sec, min), found \"20 furlongs\"")
        let count = try write("count.json", Self.metricKit.replacingOccurrences(of: "\"bucketCount\": 60", with: "\"bucketCount\": -1"))
        assertError({ _ = try MetricKitReader.read(path: count) }, "count.json:10:34: error: \"bucketCount\" must be a non-negative integer")
        let order = try write("order.json", Self.metricKit.replacingOccurrences(of: "\"bucketStart\": \"10 ms\"", with: "\"bucketStart\": \"30 ms\""))
        assertError({ _ = try MetricKitReader.read(path: order) }, "order.json:10:75: error: bucketEnd is below bucketStart")
        let syntax = try write("syntax.json", Self.metricKit.replacingOccurrences(of: "\"histogramNumBuckets\": 3,", with: "\"histogramNumBuckets\": 3,,"))
        do {
            _ = try MetricKitReader.read(path: syntax)
            XCTFail("bad JSON read")
        } catch {
            XCTAssertEqual(error.line, 8)
            XCTAssertNotNil(error.column)
        }
        let notObject = try write("string.json", "\"hello\"")
        assertError({ _ = try MetricKitReader.read(path: notObject) }, "string.json:1:1: error: expected a MetricKit payload (a JSON object) or an array of them, found a string")
    }

    // MARK: CSV

    func testCSVReadsKindAndMilliseconds() throws {
        let path = try write("costs.csv", "kind,duration_ms\nlookup,3.5\n\"draw, bar\",0.75\nlookup , 4\n\n")
        let reading = try CostInputReader.read(path: path)
        XCTAssertEqual(reading.format, .csv)
        XCTAssertEqual(reading.series.map(\.name), ["draw, bar", "lookup"])
        XCTAssertEqual(reading.series.map(\.samplesMs), [[0.75], [3.5, 4]])
    }

    func testMalformedCSVIsAnErrorWithLineAndColumn() throws {
        let header = try write("header.csv", "name,ms\nlookup,3\n")
        assertError({ _ = try CostCSVReader.read(path: header) }, "header.csv:1:1: error: expected the header 'kind,duration_ms', found 'name,ms'")
        let number = try write("number.csv", "kind,duration_ms\nlookup,3\nlookup,fast\n")
        assertError({ _ = try CostCSVReader.read(path: number) }, "number.csv:3:8: error: duration_ms must be a non-negative number of milliseconds, found 'fast'")
        let negative = try write("negative.csv", "kind,duration_ms\nlookup,-3\n")
        assertError({ _ = try CostCSVReader.read(path: negative) }, "negative.csv:2:8: error: duration_ms must be a non-negative number of milliseconds, found '-3'")
        let fields = try write("fields.csv", "kind,duration_ms\nlookup,3,4\n")
        assertError({ _ = try CostCSVReader.read(path: fields) }, "fields.csv:2:10: error: expected 2 fields (kind,duration_ms), found 3")
        let quote = try write("quote.csv", "kind,duration_ms\n\"lookup,3\n")
        assertError({ _ = try CostCSVReader.read(path: quote) }, "quote.csv:2:1: error: unterminated quoted field")
        let empty = try write("empty.csv", "")
        assertError({ _ = try CostCSVReader.read(path: empty) }, "empty.csv: error: empty file: expected the header 'kind,duration_ms'")
    }

    // MARK: Traces and mappings

    func testTraceMeasurementsAreReadAndSkippedByReplay() throws {
        let path = try write("device.jsonl", """
        {"keysim":"trace","version":1,"language":"en"}
        {"t":0,"type":"key","text":"h"}
        {"t":2.5,"type":"measure","kind":"key","durationMs":2.5}
        {"t":120,"type":"key","text":"i"}
        {"t":124,"type":"measure","kind":"lookup","durationMs":3.75}
        {"t":125,"type":"measure","kind":"key","durationMs":1.000001}

        """)
        let reading = try CostInputReader.read(path: path)
        XCTAssertEqual(reading.format, .trace)
        XCTAssertEqual(reading.series.map(\.name), ["key", "lookup"])
        XCTAssertEqual(reading.series[0].samplesMs, [2.5, 1.000001])
        var reader = try TraceFileReader(path: path)
        var events: [TraceEvent] = []
        while let event = try reader.nextEvent() { events.append(event) }
        XCTAssertEqual(events.map(\.kind.wireName), ["key", "key"])
        XCTAssertEqual(TraceValidator.validate(path: path).measurementCount, 3)
        let bad = try write("bad.jsonl", "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":1,\"type\":\"measure\",\"kind\":\"key\",\"durationMs\":-2}\n")
        assertError({ _ = try TraceCostReader.read(path: bad) }, "bad.jsonl:2:51: error: \"durationMs\" must not be negative (found -2 ms)")
        let missing = try write("missing.jsonl", "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":1,\"type\":\"measure\",\"kind\":\"key\"}\n")
        assertError({ _ = try TraceCostReader.read(path: missing) }, "missing.jsonl:2:1: error: missing field \"durationMs\" (the measured duration in milliseconds)")
    }

    /// A trace's random streams are keyed by its content without its measurements: the same
    /// key with and without `measure` lines, compressed or not; other content changes it.
    func testMeasurementsLeaveTheTraceKeyUnchanged() throws {
        let events = [TraceEvent(time: .zero, kind: .key(text: "a", touchUp: nil, point: nil)),
                      TraceEvent(time: SimTime(nanoseconds: 120_000_000), kind: .key(text: "measure", touchUp: nil, point: nil))]
        let plain = folder.appendingPathComponent("plain.jsonl").path
        let measured = folder.appendingPathComponent("measured.jsonl.zst").path
        let plainWriter = try TraceFileWriter(path: plain, header: TraceHeader(name: "k"))
        for event in events { try plainWriter.write(event) }
        try plainWriter.commit()
        let measuredWriter = try TraceFileWriter(path: measured, header: TraceHeader(name: "k"))
        try measuredWriter.write(events[0])
        try measuredWriter.write(TraceMeasurement(time: SimTime(nanoseconds: 3_000_000), kind: "key", duration: SimDuration(nanoseconds: 2_500_000)))
        try measuredWriter.write(events[1])
        try measuredWriter.commit()
        let text = try String(contentsOfFile: plain, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let measuredPlain = try write("measured.jsonl", [lines[0], lines[1], #"{"t":3, "type": "measure","kind":"lookup","durationMs":1}"#, lines[2]].joined(separator: "\n") + "\n")
        XCTAssertNil(TraceMeasurement.withoutMeasurements(Array(text.utf8)), "a key typing \"measure\" is no measurement")
        let key = try ScenarioRunner.traceKey(plain)
        XCTAssertEqual(key, String(try ScenarioFingerprint.filesHash([plain]).prefix(16)))
        XCTAssertEqual(try ScenarioRunner.traceKey(measuredPlain), key)
        XCTAssertEqual(try ScenarioRunner.traceKey(measured), key)
        let other = try write("other.jsonl", text.replacingOccurrences(of: "\"a\"", with: "\"b\""))
        XCTAssertNotEqual(try ScenarioRunner.traceKey(other), key)
    }

    func testMappingFilesAndPairs() throws {
        var mapping = NameMapping()
        XCTAssertNil(mapping.add("Dictionary Lookup=lookup"))
        XCTAssertNil(mapping.add("a=b=cloud.service"))
        XCTAssertEqual(mapping.add("x=typing"), "unknown kind 'typing' (expected one of key, lookup, rerank, draw, check, predict, network.roundTrip, network.bad.roundTrip, cloud.service)")
        XCTAssertEqual(mapping.add("nothing"), "expected NAME=kind, found 'nothing'")
        XCTAssertEqual(mapping.target(for: "Dictionary Lookup"), .work(.lookup))
        XCTAssertEqual(mapping.target(for: "a=b"), .cloudService)
        XCTAssertEqual(mapping.target(for: "draw"), .work(.draw))
        XCTAssertNil(mapping.target(for: "Haptics"))
        let file = try write("map.txt", "# signposts of the example keyboard\nKey Handling = key\n\nRerank=rerank\n")
        try mapping.add(file: file)
        XCTAssertEqual(mapping.target(for: "Key Handling"), .work(.key))
        let bad = try write("bad.txt", "Key Handling=key\nRerank=model\n")
        assertError({ try mapping.add(file: bad) }, "bad.txt:2:1: error: unknown kind 'model' (expected one of key, lookup, rerank, draw, check, predict, network.roundTrip, network.bad.roundTrip, cloud.service)")
    }
}
