// SPDX-License-Identifier: MIT OR Apache-2.0
// Assembly-wide facts, for both builds (Mono's build.sh and the .NET SDK's Lwc.csproj).
using System.Reflection;

[assembly: AssemblyMetadata("License", "MIT OR Apache-2.0")]
