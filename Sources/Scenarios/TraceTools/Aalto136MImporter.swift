import Sim

/// Converts the keystroke files of the public "136 Million Keystrokes" dataset (Dhakal,
/// Feit, Kristensson and Oulasvirta, CHI 2018; Aalto University) and of its mobile
/// counterpart "Typing37k" (Palin, Feit, Kim, Kristensson and Oulasvirta, MobileHCI 2019)
/// into traces, one trace per file. The mapping is documented under "Importing the 136M
/// Keystrokes and Typing37k datasets" in `docs/trace-format.md`.
///
/// A file is tab-separated with a header row naming the columns PARTICIPANT_ID,
/// TEST_SECTION_ID, SENTENCE, USER_INPUT, KEYSTROKE_ID, PRESS_TIME, RELEASE_TIME, LETTER,
/// KEYCODE (a Typing37k file may come without it); times are epoch milliseconds. Each line
/// is UTF-8 or, when it is not valid UTF-8, ISO-8859-1 (the datasets mix the two). Rows are
/// grouped by test section; sections follow one another in the order of their first key
/// press, each row sorted by press time (then keystroke id), so gaps between sections are
/// the real ones. Each section is a field of its own (a `field` event with its SENTENCE as
/// the intended text).
///
/// Every section is replayed as it is converted (`ReplayedText`, from an empty field): the
/// sections whose replay does not give back USER_INPUT are listed in `mismatches`.
public enum Aalto136MImporter {
    /// The datasets read.
    public enum Format: String, Sendable, CaseIterable {
        /// 136M Keystrokes (desktop): the header row is required.
        case aalto136m
        /// Typing37k (mobile): the same columns; the header row may be missing.
        case typing37k
    }

    /// The columns of a keystroke file, in order.
    public static let columns = ["PARTICIPANT_ID", "TEST_SECTION_ID", "SENTENCE", "USER_INPUT", "KEYSTROKE_ID",
                                 "PRESS_TIME", "RELEASE_TIME", "LETTER", "KEYCODE"]
    /// The most rows read from one file (a participant typed about 15 sentences).
    public static let rowCountMax = 1_000_000

    /// One converted test section.
    public struct Section: Sendable, Equatable {
        /// TEST_SECTION_ID.
        public var id: String
        /// The line of the section's first row in the file.
        public var line: Int
        /// SENTENCE: the text the participant was asked to type.
        public var sentence: String
        /// USER_INPUT: the text the participant ended with.
        public var userInput: String
        /// The text the section's events rebuild.
        public var rebuilt: String
        /// Rows (keystrokes) in the section.
        public var keystrokeCount: Int
        /// Whether the rebuilt text is USER_INPUT.
        public var rebuildsUserInput: Bool { rebuilt == userInput }
    }

    /// A converted file.
    public struct Conversion: Sendable {
        /// The trace's header.
        public var header: TraceHeader
        /// The trace's events, in time order.
        public var events: [TraceEvent]
        /// The sections, in trace order.
        public var sections: [Section]
        /// Keys that type nothing and move nothing (SHIFT, CAPS_LOCK, ENTER…), by name,
        /// sorted by name, with how often each was pressed.
        public var ignoredKeys: [(name: String, count: Int)]
        /// Rows whose press came before the end of the previous section, moved later so
        /// that the trace's time never goes backwards.
        public var reorderedRowCount: Int
        /// Lines that were not valid UTF-8 and were read as ISO-8859-1.
        public var latin1LineCount = 0

        /// The sections that do not rebuild their USER_INPUT.
        public var mismatches: [Section] { sections.filter { !$0.rebuildsUserInput } }
    }

    private struct Row {
        var line: Int
        var section: String
        var sentence: String
        var userInput: String
        var keystrokeID: Int64
        var pressNanos: Int64
        var releaseNanos: Int64?
        var letter: String
    }

    /// Reads and converts the file at `path`.
    /// - Throws: `InputError` with the line and column of the first malformed row.
    public static func convert(path: String, format: Format = .aalto136m) throws(InputError) -> Conversion {
        // Lines are decoded one by one: UTF-8 when valid, else ISO-8859-1.
        let reader = try LineReader(path: path, validatesUTF8: false)
        let datasetName = format == .aalto136m ? "136M Keystrokes" : "Typing37k"
        guard let (_, headerBytes) = try reader.nextLine() else {
            throw InputError(.invalidContent, file: path, message: "empty file: expected a header row (\(columns.joined(separator: " ")))")
        }
        var latin1Lines = 0
        let headerByteCount = headerBytes.count
        let headerFields = fields(headerBytes, latin1: &latin1Lines)
        var pendingFirstRow: [(text: String, column: Int)]?
        if headerFields.map(\.text) != columns {
            // A Typing37k file may start with its first row: nine fields, an integer keystroke id.
            if format == .typing37k, headerFields.count == columns.count, Int64(headerFields[4].text) != nil {
                pendingFirstRow = headerFields
            } else {
                let mismatch = (0..<min(headerFields.count, columns.count)).first { headerFields[$0].text != columns[$0] }
                    ?? min(headerFields.count, columns.count)
                let column = mismatch < headerFields.count ? headerFields[mismatch].column : headerBytes.count + 1
                let what = format == .typing37k ? "the first row must be the header row or a keystroke row, with" : "the header row must name"
                throw InputError(.invalidContent, file: path, line: 1, column: column,
                                 message: "not a \(datasetName) file: \(what) the columns \(columns.joined(separator: ", ")) separated by tabs")
            }
        }
        var rows: [Row] = []
        var participant: String?
        func nextRow() throws(InputError) -> (number: Int, fields: [(text: String, column: Int)], byteCount: Int)? {
            if let first = pendingFirstRow {
                pendingFirstRow = nil
                return (1, first, headerByteCount)
            }
            while let (number, bytes) = try reader.nextLine() {
                if bytes.isEmpty { continue }
                return (number, fields(bytes, latin1: &latin1Lines), bytes.count)
            }
            return nil
        }
        while let (number, row, byteCount) = try nextRow() {
            guard rows.count < rowCountMax else {
                throw InputError(.invalidContent, file: path, line: number, message: "more than \(rowCountMax) rows")
            }
            guard row.count == columns.count else {
                let column = row.count > columns.count ? row[columns.count].column : byteCount + 1
                throw InputError(.invalidContent, file: path, line: number, column: column,
                                 message: "expected \(columns.count) tab-separated fields, found \(row.count)")
            }
            func milliseconds(_ index: Int, optional: Bool) throws(InputError) -> Int64? {
                guard let nanos = parseMilliseconds(row[index].text) else {
                    if optional && row[index].text.isEmpty { return nil }
                    throw InputError(.invalidContent, file: path, line: number, column: row[index].column,
                                     message: "\(columns[index]) must be a time in epoch milliseconds, found \"\(row[index].text)\"")
                }
                return nanos
            }
            guard let keystrokeID = Int64(row[4].text) else {
                throw InputError(.invalidContent, file: path, line: number, column: row[4].column,
                                 message: "KEYSTROKE_ID must be an integer, found \"\(row[4].text)\"")
            }
            let press = try milliseconds(5, optional: false)!
            let release = try milliseconds(6, optional: true)
            guard !row[7].text.isEmpty else {
                throw InputError(.invalidContent, file: path, line: number, column: row[7].column, message: "LETTER is empty")
            }
            if participant == nil { participant = row[0].text }
            rows.append(Row(line: number, section: row[1].text, sentence: row[2].text, userInput: row[3].text,
                            keystrokeID: keystrokeID, pressNanos: press, releaseNanos: release, letter: row[7].text))
        }
        guard !rows.isEmpty else {
            throw InputError(.invalidContent, file: path, message: "no keystroke rows after the header")
        }
        var conversion = try assemble(rows, participant: participant ?? "", path: path, format: format)
        conversion.latin1LineCount = latin1Lines
        return conversion
    }

    private static func assemble(_ rows: [Row], participant: String, path: String,
                                 format: Format) throws(InputError) -> Conversion {
        // Sections in order of their first press; rows within by press time, then id.
        var sectionOrder: [String] = []
        var sectionRows: [String: [Row]] = [:]
        for row in rows {
            if sectionRows[row.section] == nil { sectionOrder.append(row.section) }
            sectionRows[row.section, default: []].append(row)
        }
        var sections = sectionOrder.map { id in
            sectionRows[id]!.sorted { ($0.pressNanos, $0.keystrokeID, $0.line) < ($1.pressNanos, $1.keystrokeID, $1.line) }
        }
        sections.sort { ($0[0].pressNanos, $0[0].line) < ($1[0].pressNanos, $1[0].line) }
        let origin = sections[0][0].pressNanos

        var events: [TraceEvent] = []
        var converted: [Section] = []
        var ignored: [String: Int] = [:]
        var reordered = 0
        var last = SimTime.zero
        func time(_ epochNanos: Int64, line: Int) throws(InputError) -> SimTime {
            let nanos = epochNanos - origin
            guard nanos <= TraceLineDecoder.timeNanosMax else {
                throw InputError(.invalidContent, file: path, line: line,
                                 message: "the file spans more than \(TraceLineDecoder.timeNanosMax / 86_400_000_000_000) days")
            }
            return SimTime(nanoseconds: nanos)
        }
        for (index, section) in sections.enumerated() {
            var text = ReplayedText()
            func add(_ kind: TraceEvent.Kind, at candidate: SimTime) {
                if candidate < last { reordered += 1 }
                last = max(last, candidate)
                events.append(TraceEvent(time: last, kind: kind))
                text.apply(kind)
            }
            let start = try time(section[0].pressNanos, line: section[0].line)
            add(.keyboardShown, at: start)
            // Each section is a field of its own; the dataset's field was emptied between
            // sections (the sentence submitted), which the next section's start records.
            add(.field(FieldChange(index == 0 ? .opened : .cleared, intendedText: section[0].sentence)), at: start)
            var end = start
            for row in section {
                let press = try time(row.pressNanos, line: row.line)
                let pressAt = max(press, last)
                var up: SimTime?
                if let release = row.releaseNanos {
                    let releaseTime = try time(release, line: row.line)
                    if releaseTime >= pressAt { up = releaseTime }
                }
                end = max(end, up ?? press, press)
                switch keyAction(row.letter, text: text) {
                case .text(let inserted):
                    add(.key(text: inserted, touchUp: up, point: nil), at: press)
                case .backspace:
                    add(.backspace(touchUp: up, point: nil), at: press)
                case .cursor(let offset):
                    if offset != 0 { add(.cursorMove(offset: offset), at: press) }
                case .forwardDelete:
                    add(.cursorMove(offset: 1), at: press)
                    add(.backspace(touchUp: up, point: nil), at: press)
                case .ignored(let name):
                    ignored[name, default: 0] += 1
                }
            }
            add(.keyboardHidden, at: end)
            let first = section[0]
            converted.append(Section(id: first.section, line: section.map(\.line).min()!, sentence: first.sentence,
                                     userInput: first.userInput, rebuilt: text.text, keystrokeCount: section.count))
        }
        let dataset = format == .aalto136m ? "136M Keystrokes dataset (Dhakal et al., CHI 2018)"
            : "Typing37k dataset (Palin et al., MobileHCI 2019)"
        let header = TraceHeader(name: "\(format.rawValue) participant \(participant)", language: "en",
                                 intendedText: converted.map(\.sentence).joined(separator: "\n"),
                                 source: "\(dataset), \(baseName(path)), imported by keysim trace import")
        return Conversion(header: header, events: events, sections: converted,
                          ignoredKeys: ignored.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                          reorderedRowCount: reordered)
    }

    /// What a LETTER value does.
    enum KeyAction: Equatable {
        case text(String)
        case backspace
        case cursor(Int)
        case forwardDelete
        case ignored(String)
    }

    /// The action of a LETTER value given the text so far: a typed character, or a key name
    /// (upper-case letters, digits and underscores, at least two characters).
    static func keyAction(_ letter: String, text: ReplayedText) -> KeyAction {
        let isName = letter.count > 1 && letter.unicodeScalars.allSatisfy { scalar in
            ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
        }
        guard isName else { return .text(letter) }
        switch letter {
        case "BKSP", "BACKSPACE": return .backspace
        case "SPACE": return .text(" ")
        case "ARROW_LEFT", "ARW_LEFT", "LEFT": return .cursor(text.cursorOffset > 0 ? -1 : 0)
        case "ARROW_RIGHT", "ARW_RIGHT", "RIGHT": return .cursor(text.cursorOffset < text.count ? 1 : 0)
        case "HOME": return .cursor(-text.cursorOffset)
        case "END": return .cursor(text.count - text.cursorOffset)
        case "DELETE", "DEL": return text.cursorOffset < text.count ? .forwardDelete : .ignored(letter)
        default: return .ignored(letter)
        }
    }

    /// Splits a row at tabs: each field's text and 1-based byte column. A row that is not
    /// valid UTF-8 is read as ISO-8859-1 (every byte is the code point of its value) and
    /// counted in `latin1`.
    static func fields(_ bytes: UnsafeBufferPointer<UInt8>, latin1: inout Int) -> [(text: String, column: Int)] {
        let isUTF8 = LineReader.validateUTF8(bytes) == nil
        if !isUTF8 { latin1 += 1 }
        var result: [(String, Int)] = []
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x09 {
            let field = UnsafeBufferPointer(rebasing: bytes[start..<index])
            let text = isUTF8 ? String(decoding: field, as: UTF8.self)
                : String(String.UnicodeScalarView(field.map { Unicode.Scalar($0) }))
            result.append((text, start + 1))
            start = index + 1
        }
        return result
    }

    /// Epoch milliseconds ("1473275830270", "1473275830270.5") as nanoseconds, exactly.
    static func parseMilliseconds(_ text: String) -> Int64? {
        var bytes = Array(text.utf8)
        guard bytes.count <= 30 else { return nil }
        guard !bytes.isEmpty, bytes.allSatisfy({ JSONBytes.isDigit($0) || $0 == UInt8(ascii: ".") }),
              bytes.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
              JSONBytes.isDigit(bytes[0]), JSONBytes.isDigit(bytes[bytes.count - 1]) else { return nil }
        return bytes.withUnsafeMutableBufferPointer { buffer in
            JSONNumber.scaled(UnsafeBufferPointer(buffer), 0..<buffer.count, decimalShift: 6, magnitudeMax: Int64.max / 2)
        }
    }

    /// The file name without its folder.
    static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
