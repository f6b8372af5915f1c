import Foundation
import SettingsTable

/// Reads a configuration file of `KEY=VALUE` lines (`#` comments, blank lines, optional quotes).
enum ConfigFile {
    static func read(path: String) throws -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigurationError(problems: ["\(Settings.configFile.name) \(path) cannot be read"])
        }
        var values: [String: String] = [:]
        var problems: [String] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "="), line[..<eq].hasPrefix(Settings.prefix) else {
                problems.append("\(path):\(number + 1): expected \(Settings.prefix)NAME=value")
                continue
            }
            var value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q {
                value = String(value.dropFirst().dropLast())
            }
            values[line[..<eq].trimmingCharacters(in: .whitespaces)] = value
        }
        if !problems.isEmpty { throw ConfigurationError(problems: problems) }
        return values
    }
}
