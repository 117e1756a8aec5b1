Feature: Logging in
  Users log in with a username and a password. Only demo / secret is valid.

  Background:
    Given I open the login page

  Scenario Outline: Logging in as "<username>" with "<password>"
    When I log in as "<username>" with password "<password>"
    Then I see the message "<message>"
    And I end up on the <page> page

    @smoke
    Examples: Valid credentials
      | username | password | message                      | page    |
      | demo     | secret   | Welcome, demo!               | welcome |

    Examples: Invalid credentials
      | username | password | message                      | page    |
      | demo     | wrong    | Invalid username or password | login   |
      | nobody   | secret   | Invalid username or password | login   |
      | DEMO     | secret   | Invalid username or password | login   |

  Scenario: The session survives a reload
    Given I am logged in as "demo"
    When I reload the page
    Then I see the message "Welcome, demo!"
