import App
import Foundation
import Testing
import VerifyCore

/// PHONE_VERIFY_NUMBER_RANGES_FILE: parsed at start-up, every bad line a problem naming its line.
@Suite struct NumberRangesConfigurationTests {
    static let name = "PHONE_VERIFY_NUMBER_RANGES_FILE"

    func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "pv-ranges-\(UUID().uuidString).txt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func problems(_ text: String) throws -> [String] {
        do {
            _ = try Configuration.load(environment: [Self.name: try file(text)])
            return []
        } catch let error as ConfigurationError {
            return error.problems
        }
    }

    @Test func goodLinesCommentsAndBlankLines() throws {
        let text = "# Benin, 2024\nBJ 01 10 mobile\n\n  gy 6 7 MOBILE   # lower-case region, upper-case type\r\nGP\t690\t9\tfixed_line_or_mobile\n"
        let c = try Configuration.load(environment: [Self.name: try file(text)])
        #expect(c.numberRanges == [
            NumberRange(region: "BJ", countryCode: 229, prefix: "01", length: 10, lineType: .mobile),
            NumberRange(region: "GY", countryCode: 592, prefix: "6", length: 7, lineType: .mobile),
            NumberRange(region: "GP", countryCode: 590, prefix: "690", length: 9, lineType: .fixedLineOrMobile),
        ])
        #expect(try Configuration.load(environment: [:]).numberRanges.isEmpty)
        #expect(try Configuration.load(environment: [Self.name: try file("# nothing yet\n")]).numberRanges.isEmpty)
    }

    @Test(arguments: [
        ("XX 01 10 mobile", "unknown region \"XX\""),
        ("BEN 01 10 mobile", "unknown region \"BEN\""),
        ("BJ 0a 10 mobile", "prefix \"0a\" must be digits only"),
        ("BJ +229 10 mobile", "prefix \"+229\" must be digits only"),
        ("BJ 01 3 mobile", "length \"3\" must be a whole number from 4 to 17"),
        ("BJ 01 18 mobile", "length \"18\" must be a whole number from 4 to 17"),
        ("BJ 01 ten mobile", "length \"ten\""),
        ("BJ 01234 4 mobile", "prefix \"01234\" is longer than the length 4"),
        ("BJ 01 10 cell", "line type \"cell\" must be one of fixed_line, mobile"),
        ("BJ 01 10 unknown", "line type \"unknown\""),
        ("BJ 01 10", "has 3 fields"),
        ("BJ 01 10 mobile extra", "has 5 fields"),
    ])
    func eachBadLineIsAProblemNamingItsLine(line: String, message: String) throws {
        let found = try problems("# header\n\(line)\n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix(Self.name) == true)
        #expect(found.first?.contains("line 2: \(message)") == true, "\(found)")
    }

    @Test func everyBadLineIsReportedAtOnce() throws {
        let found = try problems("BJ 01 10 mobile\nXX 1 8 mobile\nBJ 01 10 voip\nBJ x 8 mobile\n")
        #expect(found.count == 3)
        #expect(found[0].contains("line 2:") && found[1].contains("line 3: repeats the range of line 1") && found[2].contains("line 4:"))
    }

    @Test func aMissingFileIsAProblemNotACrash() throws {
        do {
            _ = try Configuration.load(environment: [Self.name: "/nonexistent/ranges.txt"])
            Issue.record("a missing file was accepted")
        } catch let error as ConfigurationError {
            #expect(error.problems == ["\(Self.name) must name a readable file (/nonexistent/ranges.txt)"])
        }
    }

    @Test func theServiceStartsNumbersInADeclaredRange() throws {
        let refused = try LiveServer()
        let before = try refused.call("POST", "/v1/verifications", json: #"{"phone_number":"+2290197000000"}"#)
        refused.stop()
        #expect(before.status == 400)

        let server = try LiveServer(environment: [Self.name: try file("BJ 01 10 mobile\n")])
        defer { server.stop() }
        let reply = try server.call("POST", "/v1/verifications", json: #"{"phone_number":"+229 01 97 00 00 00"}"#)
        #expect(reply.status == 201, "\(reply.json)")
        let id = try #require(reply.json["id"]?.stringValue)
        #expect(try server.code(for: id, phone: "+2290197000000").count == 6)
        // The delivery's country label comes from the same ranges, not "ZZ".
        var text = ""
        let deadline = Date().addingTimeInterval(5)
        repeat {
            text = try String(contentsOf: URL(string: server.base + "/metrics")!, encoding: .utf8)
            if text.contains(#"phoneverify_deliveries_total{gateway="console",status="sent",country="BJ",channel="sms"} 1"#) { break }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        #expect(text.contains(#"phoneverify_deliveries_total{gateway="console",status="sent",country="BJ",channel="sms"} 1"#), "\(text.split(separator: "\n").filter { $0.contains("deliveries") })")
        #expect(text.contains(#"phoneverify_verifications_total{event="started",country="BJ",purpose="sign_in"} 1"#))
    }
}
