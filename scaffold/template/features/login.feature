Feature: Logging in
  Built-in steps only: no step definition is written for this feature.
  `ferridriver steps` lists every step there is. Steps that act on an
  element take its name: pages/login.yaml names the login page's elements.

  Scenario: The login page opens
    Given I open "/login"
    Then I expect the URL to end with "/login"
