import App
import Foundation

exit(CommandLineTool.run(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment))
