extension TypistRhythm {
    /// Reads a profile's `rhythm` object: `serialCorrelation`, `positions`, `digraphClasses`
    /// (each key optional, 1 when absent) and `digraphs` (two-letter keys), all optional.
    static func read(_ field: ConfigField) throws(ConfigError) -> TypistRhythm {
        var reader = try field.object()
        let rho = try reader.optional("serialCorrelation") { f throws(ConfigError) in try f.number(in: serialCorrelationRange) } ?? 0
        let positions = try reader.optional("positions") { f throws(ConfigError) in try multipliers(f, names: positionNames) }
        let classes = try reader.optional("digraphClasses") { f throws(ConfigError) in try multipliers(f, names: classNames) }
        let digraphs = try reader.optional("digraphs") { (field) throws(ConfigError) -> [String: Double] in
            guard case .object(let members) = field.value.kind else { throw field.error("expected an object, found \(field.value.typeName)") }
            var table: [String: Double] = [:]
            for member in members {
                let entry = ConfigField(value: member.value, path: "\(field.path).\(member.key)", file: field.file)
                let letters = Array(member.key)
                guard letters.count == 2, letters.allSatisfy(\.isLetter), member.key == member.key.lowercased() else {
                    throw entry.error("a letter pair is two lower-case letters, such as \"th\"")
                }
                table[member.key] = try entry.number(in: multiplierRange)
            }
            return table
        } ?? [:]
        try reader.finish()
        return TypistRhythm(serialCorrelation: rho, positionMultipliers: positions ?? [], classMultipliers: classes ?? [],
                            digraphMultipliers: digraphs)
    }

    /// An object of multipliers, one optional key per name, 1 when absent.
    private static func multipliers(_ field: ConfigField, names: [String]) throws(ConfigError) -> [Double] {
        var reader = try field.object()
        var values: [Double] = []
        for name in names {
            values.append(try reader.optional(name) { f throws(ConfigError) in try f.number(in: multiplierRange) } ?? 1)
        }
        try reader.finish()
        return values
    }

    /// The `rhythm` object's lines in a profile file, with `number` formatting the values;
    /// the letter pairs sorted, eight to a line.
    func json5Lines(_ number: (Double) -> String) -> [String] {
        func object(_ names: [String], _ values: [Double]) -> String {
            "{ " + zip(names, values).map { "\($0): \(number($1))" }.joined(separator: ", ") + " }"
        }
        var lines = ["  // Within-word rhythm: the withinWord median's multipliers by position in the word, kind of",
                     "  // letter pair and frequent pair; serialCorrelation couples each typing interval to the last.",
                     "  rhythm: {",
                     "    serialCorrelation: \(number(serialCorrelation)),",
                     "    positions: \(object(Self.positionNames, positionMultipliers)),",
                     "    digraphClasses: \(object(Self.classNames, classMultipliers)),"]
        if !digraphMultipliers.isEmpty {
            lines.append("    digraphs: {")
            let sorted = digraphMultipliers.sorted { $0.key < $1.key }
            for start in stride(from: 0, to: sorted.count, by: 8) {
                let chunk = sorted[start..<min(start + 8, sorted.count)]
                lines.append("      " + chunk.map { "\(TraceLineEncoder.jsonString($0.key)): \(number($0.value))," }.joined(separator: " "))
            }
            lines.append("    },")
        }
        lines.append("  },")
        return lines
    }
}
