// The pages `statespace serve` sends, built into the binary so that the server
// needs no file beside it and the pages load nothing from any other host.
#pragma once

#include <string_view>

namespace statespace::cli::serve_assets {

// The list of bundles, from /api/bundles.
extern const std::string_view kHome;
// The play view of one bundle: /play/FOLDER?position=TEXT, from /api/play/FOLDER.
extern const std::string_view kPlay;

}  // namespace statespace::cli::serve_assets
