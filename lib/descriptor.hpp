// Internal: a variant compiled from its descriptor files (docs/descriptor.md):
// the files read and merged (document.hpp), the options resolved and
// substituted (options.hpp), the keys read by the schema's rows
// (schema.hpp), the tables compiled (tables.hpp), the setup read
// (setup.hpp), and everything that would break in play refused.
#pragma once
#include <string>

#include "document.hpp"
#include "koma/variant.hpp"
#include "variant_data.hpp"

namespace koma::detail {

// The variant of a descriptor file and every file it extends, or of a text
// (whose `extends` resolve against `base_dir`), with option overrides.
// Throws DescriptorError.
VariantData compile_descriptor_file(const std::string& path, const Options& overrides);
VariantData compile_descriptor_text(const std::string& text, const std::string& origin,
                                    const std::string& base_dir, const Options& overrides);

}  // namespace koma::detail
