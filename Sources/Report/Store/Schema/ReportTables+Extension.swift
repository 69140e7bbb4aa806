/// The extension's life (`docs/models.md`, "Memory, language files and the device token"):
/// every run has one `extension_per_run` row; the others have rows, at the `default` and
/// `full` levels, only when something happened.
extension ReportTables {
    static let memoryEvents = MemoryEvents()
    static let kills = Kills()
    static let downloads = Downloads()
    static let languageLoads = LanguageLoads()
    static let tokenRejections = TokenRejections()
    static let extensionPerRun = ExtensionPerRun()

    /// `memory_events`: one row per change of the extension's footprint.
    struct MemoryEvents: ReportTableDeclaration {
        let table: ReportTable
        let runID, seq, timeNs: TableColumn<Int64>
        let footprintMB: TableColumn<Double>
        let component, event: TableColumn<String>
        let language: TableColumn<String?>

        init() {
            var t = ReportTableBuilder(Self.self, "memory_events", rowPer: "change of the extension's footprint")
            runID = t.runID()
            seq = t.column("seq")
            timeNs = t.column("time_ns")
            footprintMB = t.column("footprint_mb", "after the change; 0 while killed; rounded to the byte (six decimals)")
            component = t.column("component", "`base`, `language`, `cache`, `process`")
            event = t.column("event", "`start`, `load`, `evict`, `grow`, `kill`, `restart`")
            language = t.column("language")
            table = t.table(primaryKey: [runID, seq], withoutRowID: true, retention: .items)
        }
    }

    /// `kills`: one row per kill and its cold restart.
    struct Kills: ReportTableDeclaration {
        let table: ReportTable
        let runID, killID, timeNs, restartedNs, restartNs, tasksLost, suggestionsLost, checksLost, chipsLost: TableColumn<Int64>
        let requestsAbandoned, downloadsInterrupted, keysHeld: TableColumn<Int64>
        let footprintMB, limitMB: TableColumn<Double>

        init() {
            var t = ReportTableBuilder(Self.self, "kills", rowPer: "kill and its cold restart")
            runID = t.runID()
            killID = t.column("kill_id")
            timeNs = t.column("time_ns")
            restartedNs = t.column("restarted_ns")
            restartNs = t.column("restart_ns", "kill to restarted")
            footprintMB = t.column("footprint_mb", "the footprint that went over")
            limitMB = t.column("limit_mb")
            tasksLost = t.column("tasks_lost")
            suggestionsLost = t.column("suggestions_lost")
            checksLost = t.column("checks_lost")
            chipsLost = t.column("chips_lost")
            requestsAbandoned = t.column("requests_abandoned")
            downloadsInterrupted = t.column("downloads_interrupted")
            keysHeld = t.column("keys_held")
            table = t.table(primaryKey: [runID, killID], withoutRowID: true, retention: .items)
        }
    }

    /// `downloads`: one row per language-file download.
    struct Downloads: ReportTableDeclaration {
        let table: ReportTable
        let runID, downloadID, startNs, endNs, sizeBytes, bytes: TableColumn<Int64>
        let language, outcome: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "downloads", rowPer: "language-file download")
            runID = t.runID()
            downloadID = t.column("download_id")
            language = t.column("language")
            startNs = t.column("start_ns")
            endNs = t.column("end_ns")
            sizeBytes = t.column("size_bytes")
            bytes = t.column("bytes", "on disk at the end", unit: "bytes")
            outcome = t.column("outcome", "`complete`, `offline`, `killed`")
            table = t.table(primaryKey: [runID, downloadID], withoutRowID: true, retention: .items)
        }
    }

    /// `language_loads`: one row per attempt to load a language file.
    struct LanguageLoads: ReportTableDeclaration {
        let table: ReportTable
        let runID, seq, timeNs, bytesOnDisk, sizeBytes: TableColumn<Int64>
        let language, outcome: TableColumn<String>
        let verified: TableColumn<Bool>

        init() {
            var t = ReportTableBuilder(Self.self, "language_loads", rowPer: "attempt to load a language file")
            runID = t.runID()
            seq = t.column("seq")
            timeNs = t.column("time_ns")
            language = t.column("language")
            bytesOnDisk = t.column("bytes_on_disk", unit: "bytes")
            sizeBytes = t.column("size_bytes")
            verified = t.column("verified", "1 when its SHA-256 was checked")
            outcome = t.column("outcome", "`bundled`, `loaded`, `corrupt`, `rejected`, `missing`")
            table = t.table(primaryKey: [runID, seq], withoutRowID: true, retention: .items)
        }
    }

    /// `token_rejections`: one row per request attempt the server refused for its token.
    struct TokenRejections: ReportTableDeclaration {
        let table: ReportTable
        let runID, seq, requestID, attemptNs, rejectedNs, keyboardGeneration, serverGeneration, addedNs: TableColumn<Int64>
        let retryNs: TableColumn<Int64?>
        let reason: TableColumn<String>

        init() {
            var t = ReportTableBuilder(Self.self, "token_rejections", rowPer: "request attempt the server refused")
            runID = t.runID()
            seq = t.column("seq")
            requestID = t.column("request_id")
            attemptNs = t.column("attempt_ns")
            rejectedNs = t.column("rejected_ns")
            retryNs = t.column("retry_ns", "NULL when revoked")
            reason = t.column("reason", "`expired`, `revoked`")
            keyboardGeneration = t.column("keyboard_generation")
            serverGeneration = t.column("server_generation")
            addedNs = t.column("added_ns", "attempt → retry, or → refusal when revoked")
            table = t.table(primaryKey: [runID, seq], withoutRowID: true, retention: .items)
        }
    }

    /// `extension_per_run`: the extension's totals, one row per run.
    struct ExtensionPerRun: ReportTableDeclaration {
        let table: ReportTable
        let runID, kills, keysHeld, downloads, downloadsInterrupted, verificationFailures, corruptLoads: TableColumn<Int64>
        let silentlyWrongSuggestions, silentlyWrongChecks, tokenRejections, revokedRequests, tokenAddedNs: TableColumn<Int64>
        let peakFootprintMB: TableColumn<Double>

        init() {
            var t = ReportTableBuilder(Self.self, "extension_per_run", rowPer: "run")
            runID = t.runID()
            peakFootprintMB = t.column("peak_footprint_mb")
            kills = t.column("kills")
            keysHeld = t.column("keys_held")
            downloads = t.column("downloads")
            downloadsInterrupted = t.column("downloads_interrupted")
            verificationFailures = t.column("verification_failures")
            corruptLoads = t.column("corrupt_loads")
            silentlyWrongSuggestions = t.column("silently_wrong_suggestions")
            silentlyWrongChecks = t.column("silently_wrong_checks")
            tokenRejections = t.column("token_rejections", "expired and revoked")
            revokedRequests = t.column("revoked_requests")
            tokenAddedNs = t.column("token_added_ns", "expired refusals only")
            table = t.table(primaryKey: [runID])
        }
    }
}
