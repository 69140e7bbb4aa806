/// The export formats of `keysim report`, in the order help and docs list them; the first
/// is the default. `keysim report` takes its `--format` names, help, completions and usage
/// errors from here, and `docs/report-schema.md` its table of formats
/// (`formatsMarkdown`, checked by `ReportDocsTests`).
public struct ExporterRegistry: Sendable {
    /// The exporters, the default first.
    public let exporters: [any Exporter]

    /// Every format keysim has. A new format is added here, once.
    public static let standard = ExporterRegistry([
        MarkdownExporter(), MarkdownFullExporter(), CSVExporter(), JSONExporter(), HTMLExporter(), FleetDayPageExporter(), ChromeTraceExporter(), PerfettoExporter(),
    ])

    /// A registry of `exporters`, the default first.
    /// - Precondition: at least one, and no two share a name.
    public init(_ exporters: [any Exporter]) {
        precondition(!exporters.isEmpty, "a registry has a default exporter")
        precondition(Set(exporters.map(\.name)).count == exporters.count, "two exporters share a name")
        self.exporters = exporters
    }

    /// The `--format` names, the default first.
    public var names: [String] { exporters.map(\.name) }

    /// The format used when none is given.
    public var defaultExporter: any Exporter { exporters[0] }

    /// The exporter called `name`, if any.
    public func exporter(named name: String) -> (any Exporter)? { exporters.first { $0.name == name } }

    /// `md|csv|json|…`, for a usage line.
    public var usageAlternatives: String { names.joined(separator: "|") }

    /// `md (default), csv, … or chrome-trace.`: the help of `--format`.
    public var optionHelp: String {
        let rest = names.dropFirst()
        guard let last = rest.last else { return "\(names[0]) (the only format)." }
        return ([names[0] + " (default)"] + rest.dropLast()).joined(separator: ", ") + " or \(last)."
    }

    /// What the formats make, for a one-line abstract: `Markdown, CSV, …, or a Chrome
    /// trace of one run`.
    public var titles: String {
        let titles = exporters.map(\.title)
        guard titles.count > 1 else { return titles[0] }
        return titles.dropLast().joined(separator: ", ") + ", or " + titles.last!
    }

    /// One sentence saying what every format writes: `md is …; csv writes …`.
    public var summaries: String {
        exporters.map { "\($0.name) \($0.summary)" }.joined(separator: "; ") + "."
    }

    /// The formats table of `docs/report-schema.md`: name, what, where.
    public var formatsMarkdown: String {
        var text = "```sh\nkeysim report DB [--format \(usageAlternatives)] [--batch ID|LABEL | --policy NAME | --comparison ID | --sweep ID | --run ID]\n"
            + "              [--out PATH] [--include-text]\n```\n\n"
        text += "| format | what | where |\n| --- | --- | --- |\n"
        for (index, exporter) in exporters.enumerated() {
            let where_ = switch exporter.layout {
            case .stream: "standard output, or `--out FILE`"
            case .folder: "the folder `--out FOLDER` (required), replaced whole once complete"
            }
            text += "| `\(exporter.name)`\(index == 0 ? " (default)" : "") | \(exporter.documentation) | \(where_) |\n"
        }
        return text
    }
}
