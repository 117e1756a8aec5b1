// The only configuration of this project (no ferridriver.toml): a
// function that returns the profiles, as cucumber-js allows.
export default async function () {
  const common = {
    paths: ['features/**/*.feature'],
    import: ['steps/**/*.mjs'],
    // cucumber-js loads TypeScript through tsx; ferridriver needs nothing.
    require: ['steps/**/*.ts'],
    requireModule: ['tsx/cjs'],
    worldParameters: { server: process.env.NPM_PACKAGES_SERVER },
  };
  return {
    default: common,
    // One package's scenario: cucumber-js -p one --name fs-extra
    one: { ...common, failFast: true },
  };
}
