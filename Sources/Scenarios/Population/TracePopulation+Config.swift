import Foundation
import Sim

extension TracePopulation {
    /// Reads `{population: {…}}`, entry `index` of a scenario's `traces` (`field` is the
    /// entry; paths are relative to `scenarioPath`): typists with texts, a list of traces, or
    /// a folder of traces. Every file is read now, so a missing text or a bad profile is an
    /// error of the scenario, naming the field.
    static func read(_ field: ConfigField, index: Int, scenarioPath: String) throws(ConfigError) -> TracePopulation {
        var entry = try field.object()
        // An unknown field beside `population` is reported before any file is read.
        let members = try entry.required("population") { f throws(ConfigError) in f }
        try entry.finish()
        return try readMembers(members, index: index, scenarioPath: scenarioPath)
    }

    static func readMembers(_ field: ConfigField, index: Int, scenarioPath: String) throws(ConfigError) -> TracePopulation {
        var p = try field.object()
        let kinds = ["typists", "traces", "folder"].filter { p.has($0) }
        guard kinds.count == 1 else {
            throw field.error(kinds.isEmpty ? "needs 'typists' (with 'texts'), 'traces' or 'folder'"
                              : "give one of 'typists', 'traces' and 'folder', not \(kinds.joined(separator: " and "))")
        }
        let members: Members
        switch kinds[0] {
        case "typists":
            let shared = try p.optional("texts") { f throws(ConfigError) in try readTexts(f, scenarioPath: scenarioPath) }
            members = .typists(try p.required("typists") { f throws(ConfigError) -> [Typist] in
                let typists = try f.array { t throws(ConfigError) in try readTypist(t, texts: shared, scenarioPath: scenarioPath) }
                guard !typists.isEmpty else { throw f.error("needs at least one typist") }
                guard typists.count <= membersMax else { throw f.error("has \(typists.count) typists; at most \(membersMax)") }
                return typists
            })
        case "traces":
            members = .traces(try p.required("traces") { f throws(ConfigError) -> [String] in
                let files = try f.array { t throws(ConfigError) in try ScenarioLoader.traceFile(t, scenarioPath: scenarioPath) }
                guard !files.isEmpty else { throw f.error("needs at least one trace") }
                guard files.count <= membersMax else { throw f.error("has \(files.count) traces; at most \(membersMax)") }
                return files
            })
        default:
            members = .traces(try p.required("folder") { f throws(ConfigError) in try readFolder(f, scenarioPath: scenarioPath) })
        }
        try p.finish()
        return TracePopulation(members: members, key: try contentKey(members, field: field), index: index)
    }

    private static func readTypist(_ field: ConfigField, texts shared: [Text]?, scenarioPath: String) throws(ConfigError) -> Typist {
        var t = try field.object()
        let (name, profile) = try t.required("typist") { f throws(ConfigError) in try readProfile(f, scenarioPath: scenarioPath) }
        let weight = try t.optional("weight") { f throws(ConfigError) in try f.positive() } ?? 1
        let speed = try t.optional("wpm", readSpeed)
        let own = try t.optional("texts") { f throws(ConfigError) in try readTexts(f, scenarioPath: scenarioPath) }
        guard let texts = own ?? shared else {
            throw field.error("needs 'texts', here or beside 'typists' for every typist")
        }
        try t.finish()
        return Typist(name: name, profile: profile, weight: weight, wordsPerMinute: speed, texts: texts)
    }

    /// A preset's name, or a profile file (`keysim trace fit` writes them) relative to the scenario.
    private static func readProfile(_ field: ConfigField, scenarioPath: String) throws(ConfigError) -> (String, TypistProfile) {
        let name = try field.string()
        if let preset = TypistProfile.preset(named: name) { return (name, preset) }
        guard name.contains(".") || name.contains("/") else {
            throw field.error("'\(name)' is neither a preset (\(TypistProfile.presetNames.joined(separator: ", "))) nor a profile file (typist.json5)"
                              + NameSuggester.hint(for: name, among: TypistProfile.presetNames))
        }
        let path = ScenarioLoader.resolve(name, besides: scenarioPath)
        do {
            return (path, try TypistProfile.read(path: path))
        } catch {
            throw field.error("typist profile \(error.description.replacingOccurrences(of: ": error: ", with: ": "))")
        }
    }

    /// `wpm: 40` (every session) or `wpm: {mean: 36.2, sd: 13.2}` (a lognormal across sessions).
    private static func readSpeed(_ field: ConfigField) throws(ConfigError) -> Speed {
        if case .number = field.value.kind { return .fixed(try field.number(in: TypistModel.wordsPerMinuteRange)) }
        var s = try field.object()
        let mean = try s.required("mean") { f throws(ConfigError) in try f.number(in: TypistModel.wordsPerMinuteRange) }
        let sd = try s.required("sd") { f throws(ConfigError) in try f.number(in: 0...100) }
        try s.finish()
        return sd == 0 ? .fixed(mean) : .lognormal(mean: mean, sd: sd)
    }

    /// `texts`: a text file, a folder (its `.txt` files), or a list of either.
    private static func readTexts(_ field: ConfigField, scenarioPath: String) throws(ConfigError) -> [Text] {
        let texts: [Text]
        if case .string = field.value.kind {
            texts = try readText(field, scenarioPath: scenarioPath)
        } else {
            texts = try field.array { f throws(ConfigError) in try readText(f, scenarioPath: scenarioPath) }.flatMap { $0 }
        }
        guard !texts.isEmpty else { throw field.error("needs at least one text") }
        guard texts.count <= membersMax else { throw field.error("has \(texts.count) texts; at most \(membersMax)") }
        return texts
    }

    /// One entry of `texts`: a text file, or every `.txt` file of a folder.
    private static func readText(_ field: ConfigField, scenarioPath: String) throws(ConfigError) -> [Text] {
        let path = ScenarioLoader.resolve(try field.string(), besides: scenarioPath)
        var isDirectory: ObjCBool = false
        let paths = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? try listFolder(path, suffixes: [".txt"], what: "texts (.txt files)", field: field) : [path]
        return try paths.map { path throws(ConfigError) -> Text in
            // Dictation clips are named relative to the text's own folder.
            let folder = path.contains("/") ? String(path[...path.lastIndex(of: "/")!]) : ""
            do throws(InputError) {
                let script = try SynthScript.read(path: path) { (audio: String) throws(InputError) -> Int64 in
                    try WAVFile.read(path: folder + audio).durationNanos
                }
                return Text(path: path, script: script)
            } catch {
                throw field.error("text \(error.quoted)")
            }
        }
    }

    /// The traces in a folder (`.jsonl` and `.jsonl.zst`), in byte order of their names.
    private static func readFolder(_ field: ConfigField, scenarioPath: String) throws(ConfigError) -> [String] {
        let folder = ScenarioLoader.resolve(try field.string(), besides: scenarioPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw field.error("folder not found: \(folder)")
        }
        return try listFolder(folder, suffixes: [".jsonl", ".jsonl.zst"], what: "traces (.jsonl or .jsonl.zst files)", field: field)
    }

    /// The files of `folder` whose names end in one of `suffixes`, in byte order of their
    /// names: at least one, at most `membersMax`.
    private static func listFolder(_ folder: String, suffixes: [String], what: String, field: ConfigField) throws(ConfigError) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw field.error("cannot list the folder \(folder)")
        }
        let files = names.filter { name in suffixes.contains { name.hasSuffix($0) } }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { folder.hasSuffix("/") ? folder + $0 : folder + "/" + $0 }
        guard !files.isEmpty else { throw field.error("\(folder) holds no \(what)") }
        guard files.count <= membersMax else { throw field.error("\(folder) holds \(files.count) \(what.prefix { $0 != " " }); at most \(membersMax)") }
        return files
    }

    /// The population's key: a hash of what it is made of, by content (a profile's text, a
    /// file's bytes), so that moving or renaming its files changes no draw.
    private static func contentKey(_ members: Members, field: ConfigField) throws(ConfigError) -> String {
        var text = ""
        do {
            switch members {
            case .typists(let typists):
                for typist in typists {
                    text += "typist\n\(typist.profile.json5Text)\nweight \(typist.weight)\n"
                    switch typist.wordsPerMinute {
                    case nil: text += "wpm -\n"
                    case .fixed(let wpm): text += "wpm \(wpm)\n"
                    case .lognormal(let mean, let sd): text += "wpm lognormal \(mean) \(sd)\n"
                    }
                    for t in typist.texts { text += "text \(try ScenarioFingerprint.filesHash([t.path]))\n" }
                }
            case .traces(let files):
                for file in files { text += "trace \(try ScenarioRunner.traceKey(file))\n" }
            }
        } catch {
            throw field.error("\(error)")
        }
        return String(SHA256.hex(text.utf8).prefix(16))
    }
}
