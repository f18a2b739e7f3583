import GeoCore
import TerminalUI

print("termmap: the interactive viewer is not built yet (\(TerminalInfo.cursesVersion))")
