import "evil";
import "clean";
